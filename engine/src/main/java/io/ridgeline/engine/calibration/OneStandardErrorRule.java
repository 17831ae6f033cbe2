package io.ridgeline.engine.calibration;

/**
 * The one-standard-error rule for choosing a regularisation strength by cross-validation (Breiman, Friedman, Olshen
 * &amp; Stone 1984, CART sec. 3.4.3; Hastie, Tibshirani &amp; Friedman, ESL sec. 7.10): take the strongest penalty
 * whose cross-validated error is within one standard error of the smallest. A weaker penalty must win by more than the
 * spread of its own advantage over the held-out units, or the simpler model (closer to the prior) is kept.
 *
 * <p>The held-out units are sources, so the standard error is that of the paired difference of pooled errors between
 * a strength and the best one, with sources as clusters: with d_t the difference of source t's mean |error| and n_t
 * its cases, D = sum n_t d_t / N and SE(D) = sqrt(S / (S - 1) sum_t (n_t (d_t - D))^2) / N (the cluster-robust
 * variance of a weighted mean, Liang &amp; Zeger 1986). Pairing removes what every strength shares (how hard a source
 * is to predict at all); what remains is whether the advantage is consistent across sources or carried by a few.
 */
final class OneStandardErrorRule {
    private OneStandardErrorRule() {
    }

    /**
     * @param errorPct per strength (weakest first, strongest last), per held-out source: its mean |error| in percent
     * @param cases    per held-out source: its number of cases
     * @return the index of the chosen strength
     */
    static int choose(double[][] errorPct, int[] cases) {
        int best = best(errorPct, cases);
        for (int g = errorPct.length - 1; g > best; g--) {
            double[] d = new double[cases.length];
            for (int t = 0; t < d.length; t++) {
                d[t] = errorPct[g][t] - errorPct[best][t];
            }
            if (pooled(d, cases) <= standardError(d, cases)) {
                return g;
            }
        }
        return best;
    }

    /** The strength with the smallest pooled error; ties go to the stronger. */
    static int best(double[][] errorPct, int[] cases) {
        int best = errorPct.length - 1;
        for (int g = errorPct.length - 1; g >= 0; g--) {
            if (pooled(errorPct[g], cases) < pooled(errorPct[best], cases) - 1e-9) {
                best = g;
            }
        }
        return best;
    }

    /** Mean over all cases of per-source means: sum n_t v_t / N. */
    static double pooled(double[] perSource, int[] cases) {
        double sum = 0;
        double n = 0;
        for (int t = 0; t < cases.length; t++) {
            sum += cases[t] * perSource[t];
            n += cases[t];
        }
        return sum / n;
    }

    /** Cluster-robust standard error of {@link #pooled} over the sources (0 with fewer than two). */
    static double standardError(double[] perSource, int[] cases) {
        int s = cases.length;
        if (s < 2) {
            return 0;
        }
        double mean = pooled(perSource, cases);
        double n = 0;
        double sum = 0;
        for (int t = 0; t < s; t++) {
            double u = cases[t] * (perSource[t] - mean);
            sum += u * u;
            n += cases[t];
        }
        return Math.sqrt(s / (s - 1.0) * sum) / n;
    }
}
