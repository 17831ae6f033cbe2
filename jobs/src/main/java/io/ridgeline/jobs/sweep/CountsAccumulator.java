package io.ridgeline.jobs.sweep;

import org.apache.spark.util.AccumulatorV2;

/** Element-wise sum of fixed-length counters (status counts, evaluations, rows) reported by each partition. */
public final class CountsAccumulator extends AccumulatorV2<long[], long[]> {
    private static final long serialVersionUID = 1L;
    private final long[] counts;

    public CountsAccumulator(int width) {
        counts = new long[width];
    }

    @Override
    public boolean isZero() {
        for (long c : counts) {
            if (c != 0) {
                return false;
            }
        }
        return true;
    }

    @Override
    public AccumulatorV2<long[], long[]> copy() {
        CountsAccumulator c = new CountsAccumulator(counts.length);
        c.add(counts);
        return c;
    }

    @Override
    public void reset() {
        java.util.Arrays.fill(counts, 0);
    }

    @Override
    public void add(long[] v) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += v[i];
        }
    }

    @Override
    public void merge(AccumulatorV2<long[], long[]> other) {
        add(other.value());
    }

    @Override
    public long[] value() {
        return counts;
    }
}
