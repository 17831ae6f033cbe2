package io.ridgeline.engine.technology;

/**
 * The voltage/frequency point of a derived chip's compute units under a power budget (MODEL.md sec. 2, step 4): the
 * voltage V solves units x FLOP/cycle x f(V) x E(V) = P with f ~ (V - Vt)^alpha / V and E ~ V^2 (the node's curves),
 * clamped to [Vmin, Vmax]; below Vmin the clock scales down linearly at Vmin.
 *
 * @param volts supply voltage
 * @param hz    sustained clock
 * @param watts dynamic compute power at that point
 * @param limit what set the clock
 */
record OperatingPoint(double volts, double hz, double watts, FrequencyLimit limit) {

    /** Solves flopsPerCycle x f(V) x E(V) = budget on [Vmin, Vmax] by bisection (power rises monotonically in V). */
    static OperatingPoint solve(LogicNode n, double energyScale, double flopsPerCycle, double budgetWatts) {
        double hi = n.maxVolts();
        double lo = n.minVolts();
        double pHi = power(n, energyScale, flopsPerCycle, hi);
        if (pHi <= budgetWatts) {
            return new OperatingPoint(hi, n.frequencyHz(hi), pHi, FrequencyLimit.MAX_VOLTAGE);
        }
        double pLo = power(n, energyScale, flopsPerCycle, lo);
        if (pLo >= budgetWatts) {
            // At Vmin the energy per op is fixed; only the clock can drop, linearly with power.
            return new OperatingPoint(lo, n.frequencyHz(lo) * budgetWatts / pLo, budgetWatts,
                    FrequencyLimit.MIN_VOLTAGE);
        }
        for (int i = 0; i < 100 && hi - lo > 1e-9; i++) {
            double mid = 0.5 * (lo + hi);
            if (power(n, energyScale, flopsPerCycle, mid) > budgetWatts) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        return new OperatingPoint(lo, n.frequencyHz(lo), power(n, energyScale, flopsPerCycle, lo),
                FrequencyLimit.POWER);
    }

    private static double power(LogicNode n, double energyScale, double flopsPerCycle, double volts) {
        return flopsPerCycle * n.frequencyHz(volts) * n.bf16JoulesPerFlop(volts) * energyScale;
    }
}
