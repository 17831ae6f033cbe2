package io.ridgeline.engine.pareto;

/** Pareto dominance over vectors in which every component is to be minimised. */
public final class Dominance {
    private Dominance() {
    }

    /** True when {@code a} is no worse than {@code b} everywhere and strictly better somewhere. */
    public static boolean dominates(double[] a, double[] b) {
        boolean strictlyBetter = false;
        for (int i = 0; i < a.length; i++) {
            if (a[i] > b[i]) {
                return false;
            }
            if (a[i] < b[i]) {
                strictlyBetter = true;
            }
        }
        return strictlyBetter;
    }

    /** True when every component is a real number; NaN or infinite points never enter a frontier. */
    public static boolean comparable(double[] v) {
        for (double x : v) {
            if (Double.isNaN(x) || Double.isInfinite(x)) {
                return false;
            }
        }
        return true;
    }
}
