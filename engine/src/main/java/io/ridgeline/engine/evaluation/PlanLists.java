package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.sweep.Grid;
import io.ridgeline.engine.sweep.SweepSpec;

/**
 * The plan lists of a phase's grid points, built once per (model, workload, GPU count[, explicit plan]) and cached:
 * a search list is hundreds of plans, and a sweep meets each key again at every hardware point.
 *
 * @param <P> the phase's plan type
 */
public final class PlanLists<P> {
    /** Builds the plans of a point (the search list, or the one explicit plan; null where it cannot exist). */
    @FunctionalInterface
    public interface Builder<P> {
        P[] build(ResultRow point);
    }

    private final SweepSpec spec;
    private final Object[][] lists;
    private final Builder<P> builder;

    public PlanLists(SweepSpec spec, Builder<P> builder) {
        this.spec = spec;
        this.lists = new Object[spec.planSlots()][];
        this.builder = builder;
    }

    /** The plans of the point in {@code p}. */
    @SuppressWarnings("unchecked")
    public P[] of(ResultRow p) {
        int slot = spec.planSlot(p.coord(Grid.MODEL), p.coord(Grid.WORKLOAD), p.coord(Grid.GPU_COUNT),
                p.coord(Grid.PLAN));
        Object[] cached = slot < lists.length ? lists[slot] : null;
        if (cached != null) {
            return (P[]) cached;
        }
        P[] built = builder.build(p);
        if (slot < lists.length) {
            lists[slot] = built;
        }
        return built;
    }
}
