package io.ridgeline.engine.sweep;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class GridTest {
    @Test
    void decodeAndEncodeAreInversesAndCoverEveryPointOnce() {
        Grid g = new Grid(new long[]{3, 1, 4, 2, 5});
        assertEquals(120, g.size());
        int[] c = new int[5];
        Set<String> seen = new HashSet<>();
        for (long i = 0; i < g.size(); i++) {
            g.decode(i, c);
            assertEquals(i, g.encode(c));
            seen.add(java.util.Arrays.toString(c));
        }
        assertEquals(120, seen.size());
    }

    @Test
    void lastAxisVariesFastest() {
        Grid g = new Grid(new long[]{2, 3});
        int[] c = new int[2];
        g.decode(4, c);
        assertArrayEquals(new int[]{1, 1}, c);
    }

    @Test
    void rejectsOverflowingAndEmptyAxes() {
        assertThrows(ArithmeticException.class, () -> new Grid(new long[]{1L << 40, 1L << 40}));
        assertThrows(IllegalArgumentException.class, () -> new Grid(new long[]{2, 0}));
    }
}
