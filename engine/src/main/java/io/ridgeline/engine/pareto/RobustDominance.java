package io.ridgeline.engine.pareto;

/**
 * Dominance under prediction intervals (issue 11's {@code robust} frontier flag). Every objective of a point has an
 * interval; in minimisation space (see {@link Goal#minimised}) its <em>best</em> end is the lower one and its
 * <em>worst</em> end the higher. A frontier point p is <em>robust</em> when no other point q could dominate it within
 * the intervals: no q whose best vector dominates p's worst vector. Points of the same interval group (same stack on the
 * same chip family) share their systematic error, so between them the intervals cancel and plain dominance of the
 * nominal values applies, which no other frontier point has over p by definition.
 *
 * <p>Mergeable: if some q could dominate p, so does the point that dominates q's best vector on the skyline of best
 * vectors of q's group (dominance is transitive). A sweep therefore keeps, per frontier group, one more skyline per
 * interval group over best vectors, merges them like the frontier, and checks each frontier point against the other
 * groups' entries with {@link #robust}. Primitive arrays only; nothing allocates.
 */
public final class RobustDominance {
    private RobustDominance() {
    }

    /**
     * Fills a point's best and worst minimised vectors from its intervals.
     *
     * @param low  per objective, the interval's lower end in the objective's own orientation (e.g. tokens/s)
     * @param high per objective, the upper end
     */
    public static void ends(Goal[] goals, double[] low, double[] high, double[] bestOut, double[] worstOut) {
        for (int i = 0; i < goals.length; i++) {
            double a = goals[i].minimised(low[i]);
            double b = goals[i].minimised(high[i]);
            bestOut[i] = Math.min(a, b);
            worstOut[i] = Math.max(a, b);
        }
    }

    /** True when q could dominate p within the intervals (q's best vector dominates p's worst one). */
    public static boolean possiblyDominates(double[] qBest, double[] pWorst) {
        return Dominance.dominates(qBest, pWorst);
    }

    /** True when a dominates b whatever the errors (a's worst vector dominates b's best one). */
    public static boolean surelyDominates(double[] aWorst, double[] bBest) {
        return Dominance.dominates(aWorst, bBest);
    }

    /**
     * Whether a frontier point stays undominated within the intervals.
     *
     * @param pWorst     the point's worst vector
     * @param pGroup     its interval group (-1: none, then every other point counts as another group)
     * @param bests      best vectors of the candidates (e.g. the per-group skylines of best vectors)
     * @param bestGroups their interval groups; candidates of p's own group are skipped (nominal dominance applies)
     */
    public static boolean robust(double[] pWorst, int pGroup, double[][] bests, int[] bestGroups) {
        for (int i = 0; i < bests.length; i++) {
            if ((pGroup < 0 || bestGroups[i] != pGroup) && possiblyDominates(bests[i], pWorst)) {
                return false;
            }
        }
        return true;
    }
}
