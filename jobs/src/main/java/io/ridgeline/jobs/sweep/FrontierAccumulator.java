package io.ridgeline.jobs.sweep;

import org.apache.spark.util.AccumulatorV2;

/**
 * Merges the per-partition skylines of every frontier group ({@link FrontierFold}: the frontier and the best-vector
 * skylines of the robust flag) on the driver. Merging is idempotent per (point, plan),
 * so a re-executed or speculative task cannot duplicate frontier rows.
 */
public final class FrontierAccumulator extends AccumulatorV2<FrontierFold, FrontierFold> {
    private static final long serialVersionUID = 1L;
    private final FrontierFold groups = new FrontierFold();

    @Override
    public boolean isZero() {
        return groups.isEmpty();
    }

    @Override
    public AccumulatorV2<FrontierFold, FrontierFold> copy() {
        FrontierAccumulator c = new FrontierAccumulator();
        c.add(groups);
        return c;
    }

    @Override
    public void reset() {
        groups.clear();
    }

    @Override
    public void add(FrontierFold partition) {
        groups.merge(partition);
    }

    @Override
    public void merge(AccumulatorV2<FrontierFold, FrontierFold> other) {
        add(other.value());
    }

    @Override
    public FrontierFold value() {
        return groups;
    }
}
