package io.ridgeline.engine.ops;

import java.util.Arrays;

/**
 * An open-addressing map from a GEMM shape (batch, m, n, k, precision) to seconds, over primitive arrays: no boxing,
 * no allocation per lookup. Plan searches and sweeps evaluate the same shapes over and over (only the parallel layout
 * around them changes), so per-chip caching removes most of the roofline work. Not thread-safe: one per model
 * instance, and models are per thread.
 */
final class ShapeCache {
    private static final int MAX_ENTRIES = 1 << 16;
    private double[] keys;   // 4 doubles per slot: batch, m, n, k (NaN batch = empty)
    private int[] precisions;
    private double[] values;
    private int size;
    private int mask;

    ShapeCache() {
        allocate(1 << 10);
    }

    private void allocate(int slots) {
        keys = new double[slots * 4];
        Arrays.fill(keys, Double.NaN);
        precisions = new int[slots];
        values = new double[slots];
        mask = slots - 1;
        size = 0;
    }

    /** Seconds for the shape, or NaN when absent. */
    double get(double batch, double m, double n, double k, int precision) {
        int slot = slot(batch, m, n, k, precision);
        while (true) {
            int base = slot * 4;
            double b = keys[base];
            if (Double.isNaN(b)) {
                return Double.NaN;
            }
            if (b == batch && keys[base + 1] == m && keys[base + 2] == n && keys[base + 3] == k
                    && precisions[slot] == precision) {
                return values[slot];
            }
            slot = (slot + 1) & mask;
        }
    }

    void put(double batch, double m, double n, double k, int precision, double seconds) {
        if (size >= MAX_ENTRIES) {
            // A sweep over unbounded shapes would otherwise grow without limit: start over.
            allocate(values.length);
        } else if ((size + 1) * 2 > values.length) {
            rehash(values.length * 2);
        }
        insert(batch, m, n, k, precision, seconds);
    }

    private void insert(double batch, double m, double n, double k, int precision, double seconds) {
        int slot = slot(batch, m, n, k, precision);
        while (!Double.isNaN(keys[slot * 4])) {
            slot = (slot + 1) & mask;
        }
        int base = slot * 4;
        keys[base] = batch;
        keys[base + 1] = m;
        keys[base + 2] = n;
        keys[base + 3] = k;
        precisions[slot] = precision;
        values[slot] = seconds;
        size++;
    }

    private void rehash(int slots) {
        double[] oldKeys = keys;
        int[] oldPrecisions = precisions;
        double[] oldValues = values;
        allocate(slots);
        for (int i = 0; i < oldValues.length; i++) {
            if (!Double.isNaN(oldKeys[i * 4])) {
                insert(oldKeys[i * 4], oldKeys[i * 4 + 1], oldKeys[i * 4 + 2], oldKeys[i * 4 + 3], oldPrecisions[i],
                        oldValues[i]);
            }
        }
    }

    private int slot(double batch, double m, double n, double k, int precision) {
        // GEMM dimensions are small integers, often powers of two: their IEEE bits differ only in the top ~20 bits and
        // end in long runs of zeros, and multiplying keeps those zeros. Combine upward, then let a full 64-bit
        // finalizer (MurmurHash3 fmix64) bring the high bits down, or every shape lands in a few slots and lookups
        // degrade into long linear probes.
        long h = Double.doubleToLongBits(batch);
        h = h * 0x9E3779B97F4A7C15L + Double.doubleToLongBits(m);
        h = h * 0x9E3779B97F4A7C15L + Double.doubleToLongBits(n);
        h = h * 0x9E3779B97F4A7C15L + Double.doubleToLongBits(k);
        h = h * 0x9E3779B97F4A7C15L + precision;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return (int) h & mask;
    }
}
