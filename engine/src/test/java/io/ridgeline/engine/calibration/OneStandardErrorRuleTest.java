package io.ridgeline.engine.calibration;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The ridge strength is the strongest within one standard error (over held-out sources, paired) of the best: a weaker
 * penalty that wins on every source is kept, one whose pooled win is carried by a single source is not.
 */
class OneStandardErrorRuleTest {
    /** Strengths weakest first: 0, 0.1, 1, 10, inf (as PenaltySelection.GRID). */
    private static final int INF = 4;

    private static void assertChoice(double[][] err, int[] cases, int best, int chosen) {
        assertEquals(best, OneStandardErrorRule.best(err, cases), "lowest error");
        assertEquals(chosen, OneStandardErrorRule.choose(err, cases), "one-standard-error choice");
    }

    @Test
    void aConsistentWinIsKept() {
        // lambda = 0.1 beats the catalogue by 0.3 points on each of four sources.
        double[] catalogue = {5, 8, 3, 10};
        double[] shift = {0.5, -0.3, -0.2, -0.1, 0};
        double[][] err = new double[shift.length][catalogue.length];
        for (int g = 0; g < shift.length; g++) {
            for (int t = 0; t < catalogue.length; t++) {
                err[g][t] = catalogue[t] + shift[g];
            }
        }
        assertChoice(err, new int[]{10, 20, 5, 40}, 1, 1);
    }

    @Test
    void aWinOneSourceCarriesFallsBackToTheStrongerPenalty() {
        // lambda = 10 wins by 0.15 points pooled, only because the big source gains 0.5 while three others lose 1:
        // D = 0.154 against SE(D) = 0.355, so the catalogue (infinite lambda) is kept.
        double[][] err = {
                {9, 9, 9, 9},
                {9, 9, 9, 9},
                {9, 9, 9, 9},
                {6.0, 9.0, 4.0, 9.5},
                {5.0, 8.0, 3.0, 10.0}};
        assertChoice(err, new int[]{10, 10, 10, 100}, 3, INF);
    }

    @Test
    void tiesGoToTheStrongerPenalty() {
        assertChoice(new double[][]{{4, 6}, {3, 5}, {3, 5}, {3, 5}, {3, 5}}, new int[]{1, 1}, INF, INF);
    }

    @Test
    void theStandardErrorIsThatOfAClusteredWeightedMean() {
        // d = {1, -1}, n = {1, 3}: D = (1 - 3) / 4 = -0.5; u = {1.5, -1.5}; SE = sqrt(2 / 1 x 4.5) / 4 = 0.75.
        double[] d = {1, -1};
        int[] cases = {1, 3};
        assertEquals(-0.5, OneStandardErrorRule.pooled(d, cases), 1e-12);
        assertEquals(0.75, OneStandardErrorRule.standardError(d, cases), 1e-12);
        assertEquals(0.0, OneStandardErrorRule.standardError(new double[]{2}, new int[]{7}), 0.0);
    }
}
