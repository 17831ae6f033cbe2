package io.ridgeline.engine.calibration;

/**
 * Keeps a parameter inside [lower, upper] while the optimiser works on an unbounded variable u, with the smooth
 * transform MINUIT uses for bounded parameters (James and Roos, MINUIT user's guide sec. 1.2.1):
 * x = lower + (upper - lower) (sin u + 1) / 2. A parameter that wants to leave the box comes to rest on its bound
 * (dx/du = 0 there) instead of being clipped between iterations.
 */
final class BoundTransform {
    /** Starting values are moved this fraction of the range inside a bound, where dx/du would be 0. */
    static final double EDGE_FRACTION = 1e-6;

    private BoundTransform() {
    }

    static double toBounded(double u, double lower, double upper) {
        return lower + (upper - lower) * (StrictMath.sin(u) + 1) / 2;
    }

    static double toUnbounded(double x, double lower, double upper) {
        double range = upper - lower;
        double inside = Math.min(upper - EDGE_FRACTION * range, Math.max(lower + EDGE_FRACTION * range, x));
        return StrictMath.asin(2 * (inside - lower) / range - 1);
    }

    /** dx/du at u. */
    static double derivative(double u, double lower, double upper) {
        return (upper - lower) * StrictMath.cos(u) / 2;
    }
}
