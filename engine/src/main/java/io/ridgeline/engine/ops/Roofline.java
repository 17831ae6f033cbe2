package io.ridgeline.engine.ops;

/** The soft roofline shared by every operator: compute and memory times combined with an overlap exponent. */
public final class Roofline {
    private Roofline() {
    }

    /**
     * (c^p + m^p)^(1/p): p = 1 is no overlap (c + m), large p tends to max(c, m). Real kernels sit between: neither
     * perfectly overlapped nor serial near the ridge point (families.csv states how p was fitted).
     */
    public static double combine(double computeSeconds, double memorySeconds, double p) {
        if (computeSeconds <= 0) {
            return memorySeconds;
        }
        if (memorySeconds <= 0) {
            return computeSeconds;
        }
        // The calibrated exponents are small integers: avoid Math.pow in the hot path.
        if (p == 2.0) {
            return Math.sqrt(computeSeconds * computeSeconds + memorySeconds * memorySeconds);
        }
        if (p == 3.0) {
            return Math.cbrt(computeSeconds * computeSeconds * computeSeconds
                    + memorySeconds * memorySeconds * memorySeconds);
        }
        double hi = Math.max(computeSeconds, memorySeconds);
        double lo = Math.min(computeSeconds, memorySeconds);
        return hi * Math.pow(1 + Math.pow(lo / hi, p), 1 / p);
    }
}
