package io.ridgeline.engine.pareto;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;

/**
 * The non-dominated subset of the points offered so far, over objective vectors already turned into minimisation
 * (see {@link Goal#minimised}). Equal vectors do not dominate each other, so ties are all kept; an entry is identified
 * by {@code (pointIndex, planIndex)} and offering the same identity twice keeps one copy, which makes merging
 * idempotent (a re-executed Spark task cannot duplicate rows).
 *
 * <p>The set is order-independent: any insertion order, and any split into partitions merged in any order, gives the
 * same entries. {@link #entries()} returns them in a canonical order (by vector, then identity).
 *
 * @param <T> what each entry carries (a result row); built only when the point is accepted. The skyline is
 *            serialisable (Spark ships it) when the payloads are.
 */
public final class Skyline<T> implements Serializable {
    private static final long serialVersionUID = 1L;

    /** One non-dominated point. {@code minimised} is owned by the entry (a private copy). */
    public record Entry<T>(double[] minimised, long pointIndex, int planIndex, T payload)
            implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    private static final Comparator<Entry<?>> CANONICAL = (a, b) -> {
        int c = Arrays.compare(a.minimised(), b.minimised());
        if (c != 0) {
            return c;
        }
        c = Long.compare(a.pointIndex(), b.pointIndex());
        return c != 0 ? c : Integer.compare(a.planIndex(), b.planIndex());
    };

    private final int dimensions;
    private final ArrayList<Entry<T>> entries = new ArrayList<>();

    public Skyline(int dimensions) {
        if (dimensions < 1) {
            throw new IllegalArgumentException("a skyline needs at least one objective");
        }
        this.dimensions = dimensions;
    }

    public int dimensions() {
        return dimensions;
    }

    public int size() {
        return entries.size();
    }

    /**
     * Offers a point. The vector is copied only when the point is accepted, and the payload is built only then, so
     * offering a dominated point allocates nothing.
     *
     * @return true when the point joined the skyline
     */
    public boolean offer(double[] minimised, long pointIndex, int planIndex, Supplier<T> payload) {
        if (minimised.length != dimensions) {
            throw new IllegalStateException("expected " + dimensions + " objectives, got " + minimised.length);
        }
        if (!Dominance.comparable(minimised)) {
            return false;
        }
        if (!admits(minimised, pointIndex, planIndex)) {
            return false;
        }
        entries.add(new Entry<>(minimised.clone(), pointIndex, planIndex, payload.get()));
        return true;
    }

    /** Adds every entry of {@code other}; the result is the skyline of the union. */
    public void merge(Skyline<T> other) {
        if (other.dimensions != dimensions) {
            throw new IllegalStateException("cannot merge skylines of " + dimensions + " and " + other.dimensions
                    + " objectives");
        }
        for (Entry<T> e : other.entries) {
            if (admits(e.minimised(), e.pointIndex(), e.planIndex())) {
                entries.add(e);
            }
        }
    }

    /** Rejects dominated points and duplicates; otherwise removes what the new point dominates. */
    private boolean admits(double[] v, long pointIndex, int planIndex) {
        for (int i = 0; i < entries.size(); i++) {
            Entry<T> e = entries.get(i);
            if (e.pointIndex() == pointIndex && e.planIndex() == planIndex) {
                return false;
            }
            if (Dominance.dominates(e.minimised(), v)) {
                return false;
            }
        }
        // Swap-remove dominated entries: order does not matter until entries() sorts.
        for (int i = entries.size() - 1; i >= 0; i--) {
            if (Dominance.dominates(v, entries.get(i).minimised())) {
                int last = entries.size() - 1;
                entries.set(i, entries.get(last));
                entries.remove(last);
            }
        }
        return true;
    }

    /** Forgets every entry, keeping the capacity (one skyline reused per grid point). */
    public void clear() {
        entries.clear();
    }

    /** The entries in canonical order: by minimised vector, then point index, then plan index. */
    public List<Entry<T>> entries() {
        List<Entry<T>> out = new ArrayList<>(entries);
        out.sort(CANONICAL);
        return out;
    }
}
