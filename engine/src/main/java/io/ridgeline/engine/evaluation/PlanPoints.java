package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.sweep.Grid;
import io.ridgeline.engine.sweep.SweepSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * What both phases do the same way behind {@link PhaseModel.Points}: a point's plans are a cached list
 * ({@link PlanLists}), looked up once per point ({@link #plans}), and plan {@code i} of it goes to the phase's own
 * typed step.
 *
 * @param <P> the phase's plan type
 */
public abstract class PlanPoints<P> implements PhaseModel.Points {
    protected final SweepSpec spec;
    protected final boolean explicit;
    private final PlanLists<P> plans;
    /** The plans of the point {@link #plans(ResultRow)} was last asked about: the evaluator's steps that follow. */
    private P[] current;

    protected PlanPoints(SweepSpec spec) {
        this.spec = spec;
        this.explicit = spec.parallelism().mode() == SweepSpec.Mode.EXPLICIT;
        this.plans = new PlanLists<>(spec, this::build);
    }

    /** The search list of a point, or its explicit plan (null where it cannot exist at the point's GPU count). */
    protected abstract P[] build(ResultRow point);

    /** One engine evaluation. */
    protected abstract PlanResult run(ResultRow point, SystemSpec system, P plan);

    /** The performance metrics of an evaluated plan. */
    protected abstract void fill(ResultRow point, P plan, PlanResult r, double[] metrics);

    /** The plan's cells. */
    protected abstract void write(P plan, ResultRow row);

    /** Adds the shape rules the plan breaks for the point's model and workload. */
    protected abstract void shapeProblems(ResultRow point, P plan, List<InputError> out);

    /** Why the plan does not fit the point's GPU count, or null. */
    protected abstract InputError gpuProblem(ResultRow point, P plan);

    /** The explicit plan of the point (explicit mode). */
    protected final SweepSpec.ExplicitPlan explicitPlan(ResultRow point) {
        return spec.parallelism().plans().get(point.coord(Grid.PLAN));
    }

    @Override
    public final int plans(ResultRow point) {
        current = plans.of(point);
        return current.length;
    }

    @Override
    public final PlanResult evaluate(ResultRow point, SystemSpec system, int i) {
        P plan = current[i];
        return plan == null ? null : run(point, system, plan);
    }

    @Override
    public final void fillMetrics(ResultRow point, int i, PlanResult r, double[] metrics) {
        fill(point, current[i], r, metrics);
    }

    @Override
    public final void writePlan(ResultRow point, int i) {
        write(current[i], point);
    }

    @Override
    public final List<InputError> problems(ResultRow point, int i) {
        P plan = plans.of(point)[i];
        if (plan == null) {
            return null;
        }
        List<InputError> out = new ArrayList<>();
        shapeProblems(point, plan, out);
        InputError gpus = gpuProblem(point, plan);
        if (gpus != null) {
            out.add(gpus);
        }
        return out;
    }
}
