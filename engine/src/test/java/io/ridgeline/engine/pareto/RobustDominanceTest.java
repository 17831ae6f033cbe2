package io.ridgeline.engine.pareto;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RobustDominanceTest {
    private static final Goal[] GOALS = {Goal.MAX, Goal.MIN}; // tokens/s up, $/Mtok down

    private static double[][] ends(double tpsLo, double tpsHi, double usdLo, double usdHi) {
        double[] best = new double[2];
        double[] worst = new double[2];
        RobustDominance.ends(GOALS, new double[]{tpsLo, usdLo}, new double[]{tpsHi, usdHi}, best, worst);
        return new double[][]{best, worst};
    }

    @Test
    void endsTurnIntervalsIntoBestAndWorstMinimisedVectors() {
        double[][] e = ends(90, 110, 0.9, 1.1);
        assertArrayEquals(new double[]{-110, 0.9}, e[0]);
        assertArrayEquals(new double[]{-90, 1.1}, e[1]);
    }

    @Test
    void aNeighbourInsideTheErrorMakesAFrontierPointFragile() {
        double[][] p = ends(95, 115, 0.95, 1.15);   // nominal 105 tok/s, 1.05 $/Mtok
        double[][] q = ends(90, 110, 0.9, 1.1);     // nominal 100, 1.00: not dominated by p, not dominating it
        assertTrue(RobustDominance.possiblyDominates(q[0], p[1]));
        assertFalse(RobustDominance.robust(p[1], 0, new double[][]{q[0]}, new int[]{1}));
        // Same interval group: the errors are shared, nominal values decide; q does not dominate p nominally.
        assertTrue(RobustDominance.robust(p[1], 1, new double[][]{q[0]}, new int[]{1}));
    }

    @Test
    void aClearWinnerIsRobustAndSurelyDominates() {
        double[][] p = ends(190, 210, 0.45, 0.55);
        double[][] q = ends(90, 110, 0.9, 1.1);
        assertTrue(RobustDominance.robust(p[1], 0, new double[][]{q[0]}, new int[]{1}));
        assertTrue(RobustDominance.surelyDominates(p[1], q[0]));
        assertFalse(RobustDominance.surelyDominates(q[1], p[0]));
    }

    @Test
    void pointsWithoutAGroupCompareWithEveryone() {
        double[][] p = ends(95, 115, 0.95, 1.15);
        double[][] q = ends(90, 110, 0.9, 1.1);
        assertFalse(RobustDominance.robust(p[1], -1, new double[][]{q[0]}, new int[]{-1}));
    }
}
