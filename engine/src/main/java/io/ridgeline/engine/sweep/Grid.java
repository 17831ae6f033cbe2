package io.ridgeline.engine.sweep;

import java.util.Arrays;

/**
 * A mixed-radix indexable product of axes: point {@code i} has coordinates {@code c} with
 * {@code i = ((c0 * r1 + c1) * r2 + c2) ...}, the last axis varying fastest. Executors decode their own index ranges, so
 * the grid is never materialised.
 */
public final class Grid {
    /** The axes of a sweep's grid, in index order (the plan axis varies fastest). */
    public static final int MODEL = 0, WORKLOAD = 1, CHIP = 2, SCALE_OUT = 3, SCALE_OUT_RATE = 4, SCALE_UP_DOMAIN = 5,
            TOPOLOGY = 6, GPU_COUNT = 7, PLAN = 8;

    private final long[] radices;
    private final long size;

    public Grid(long[] radices) {
        this.radices = radices.clone();
        long s = 1;
        for (long r : radices) {
            if (r < 1) {
                throw new IllegalArgumentException("every axis needs at least one value: " + Arrays.toString(radices));
            }
            s = Math.multiplyExact(s, r);
        }
        this.size = s;
    }

    public long size() {
        return size;
    }

    public int axes() {
        return radices.length;
    }

    public long radix(int axis) {
        return radices[axis];
    }

    /** Writes the coordinates of point {@code index} into {@code coords} (no allocation). */
    public void decode(long index, int[] coords) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("point " + index + " outside grid of " + size);
        }
        long rest = index;
        for (int a = radices.length - 1; a >= 0; a--) {
            coords[a] = (int) (rest % radices[a]);
            rest /= radices[a];
        }
    }

    /** The index of the point with these coordinates. */
    public long encode(int[] coords) {
        long index = 0;
        for (int a = 0; a < radices.length; a++) {
            if (coords[a] < 0 || coords[a] >= radices[a]) {
                throw new IndexOutOfBoundsException("coordinate " + coords[a] + " outside axis " + a);
            }
            index = index * radices[a] + coords[a];
        }
        return index;
    }
}
