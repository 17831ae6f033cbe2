package io.ridgeline.engine.pareto;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SkylineTest {

    /** The definition: points no other point dominates. O(n^2), obviously right. */
    private static Set<Long> bruteForce(List<double[]> points) {
        Set<Long> out = new TreeSet<>();
        for (int i = 0; i < points.size(); i++) {
            boolean dominated = false;
            for (int j = 0; j < points.size() && !dominated; j++) {
                dominated = j != i && Dominance.dominates(points.get(j), points.get(i));
            }
            if (!dominated) {
                out.add((long) i);
            }
        }
        return out;
    }

    private static Set<Long> ids(Skyline<String> s) {
        Set<Long> out = new TreeSet<>();
        s.entries().forEach(e -> out.add(e.pointIndex()));
        return out;
    }

    /** Random points on a coarse lattice, so ties and equal vectors are frequent. */
    private static List<double[]> randomPoints(Random rnd, int n, int dims, int levels) {
        List<double[]> pts = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            double[] v = new double[dims];
            for (int d = 0; d < dims; d++) {
                v[d] = rnd.nextInt(levels);
            }
            pts.add(v);
        }
        return pts;
    }

    @Test
    void matchesBruteForceOnRandomSets() {
        Random rnd = new Random(42);
        for (int trial = 0; trial < 300; trial++) {
            int dims = 1 + rnd.nextInt(4);
            List<double[]> pts = randomPoints(rnd, 1 + rnd.nextInt(200), dims, 2 + rnd.nextInt(30));
            Skyline<String> s = new Skyline<>(dims);
            for (int i = 0; i < pts.size(); i++) {
                s.offer(pts.get(i), i, 0, () -> "row");
            }
            assertEquals(bruteForce(pts), ids(s), "trial " + trial);
        }
    }

    @Test
    void mergingPartitionsInAnyOrderGivesTheSkylineOfTheUnion() {
        Random rnd = new Random(7);
        for (int trial = 0; trial < 100; trial++) {
            int dims = 2 + rnd.nextInt(3);
            List<double[]> pts = randomPoints(rnd, 50 + rnd.nextInt(300), dims, 20);
            int parts = 1 + rnd.nextInt(8);
            List<Skyline<String>> partitions = new ArrayList<>();
            for (int p = 0; p < parts; p++) {
                partitions.add(new Skyline<>(dims));
            }
            for (int i = 0; i < pts.size(); i++) {
                partitions.get(rnd.nextInt(parts)).offer(pts.get(i), i, 0, () -> "row");
            }
            Collections.shuffle(partitions, rnd);
            Skyline<String> merged = new Skyline<>(dims);
            for (Skyline<String> p : partitions) {
                merged.merge(p);
            }
            // Merging one partition twice (a re-run task) must not duplicate rows.
            merged.merge(partitions.get(0));
            assertEquals(bruteForce(pts), ids(merged), "trial " + trial);
            assertEquals(ids(merged).size(), merged.size());
        }
    }

    @Test
    void keepsEqualVectorsAndRejectsDuplicatesOfTheSameIdentity() {
        Skyline<String> s = new Skyline<>(2);
        assertTrue(s.offer(new double[]{1, 2}, 1, 0, () -> "a"));
        assertTrue(s.offer(new double[]{1, 2}, 2, 0, () -> "b"));
        assertFalse(s.offer(new double[]{1, 2}, 2, 0, () -> "b"));
        assertFalse(s.offer(new double[]{1, 3}, 3, 0, () -> "c"));
        assertEquals(2, s.size());
    }

    @Test
    void neverAdmitsNaNAndBuildsPayloadOnlyWhenAccepted() {
        Skyline<String> s = new Skyline<>(2);
        assertFalse(s.offer(new double[]{Double.NaN, 1}, 1, 0, () -> "nan"));
        s.offer(new double[]{0, 0}, 2, 0, () -> "best");
        assertFalse(s.offer(new double[]{1, 1}, 3, 0, () -> {
            throw new AssertionError("payload built for a dominated point");
        }));
    }

    @Test
    void maximisedObjectivesAreNegated() {
        assertEquals(-5.0, Goal.MAX.minimised(5.0));
        assertEquals(5.0, Goal.MIN.minimised(5.0));
    }
}
