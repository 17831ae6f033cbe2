package io.ridgeline.engine.sweep;

import io.ridgeline.engine.cost.TcoParameters;

import java.io.Serializable;

/**
 * A sweep's {@code cost:} section: the TCO knobs ({@link TcoParameters}, defaults documented there and in
 * docs/SWEEPS.md) as plain numbers so the spec serialises to executors, plus the token budget of one run.
 *
 * @param tokens tokens one run processes (trained tokens, or generated tokens served), for {@code run_cost_usd};
 *               0 = no budget (the column stays null)
 */
public record CostSpec(double serverOverheadFactor, double interconnectFraction, double amortizationYears,
                       double serverPowerFactor, double loadFraction, double pue, double usdPerKwh,
                       double availabilityFraction, double tokens) implements Serializable {
    private static final long serialVersionUID = 1L;

    public static CostSpec defaults() {
        TcoParameters d = TcoParameters.defaults();
        return new CostSpec(d.serverOverheadFactor(), d.interconnectFraction(), d.amortizationYears(),
                d.serverPowerFactor(), d.loadFraction(), d.pue(), d.usdPerKwh(), d.availabilityFraction(), 0);
    }

    public TcoParameters parameters() {
        return new TcoParameters(serverOverheadFactor, interconnectFraction, amortizationYears, serverPowerFactor,
                loadFraction, pue, usdPerKwh, availabilityFraction);
    }
}
