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

    @Test
    void aConsistentWinIsKept() {
        // lambda = 0.1 beats the catalogue by 0.3 points on each of four sources.
        double[][] err = {
                {5.5, 8.5, 3.5, 10.5},
                {4.7, 7.7, 2.7, 9.7},
                {4.8, 7.8, 2.8, 9.8},
                {4.9, 7.9, 2.9, 9.9},
                {5.0, 8.0, 3.0, 10.0}};
        int[] cases = {10, 20, 5, 40};
        assertEquals(1, OneStandardErrorRule.best(err, cases));
        assertEquals(1, OneStandardErrorRule.choose(err, cases));
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
        int[] cases = {10, 10, 10, 100};
        assertEquals(3, OneStandardErrorRule.best(err, cases));
        assertEquals(INF, OneStandardErrorRule.choose(err, cases));
    }

    @Test
    void tiesGoToTheStrongerPenalty() {
        double[][] err = {{4, 6}, {3, 5}, {3, 5}, {3, 5}, {3, 5}};
        int[] cases = {1, 1};
        assertEquals(INF, OneStandardErrorRule.best(err, cases));
        assertEquals(INF, OneStandardErrorRule.choose(err, cases));
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
