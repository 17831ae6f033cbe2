package io.ridgeline.engine.cost;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The knobs of the TCO model. Use {@link #defaults()} and override with {@link #with}.
 *
 * @param serverOverheadFactor     server capex over chip price (CPUs, memory, boards, chassis)
 * @param interconnectFraction     cluster interconnect share of total cluster capex, when no topology is priced
 * @param amortizationYears        straight-line depreciation period
 * @param serverPowerFactor        server power over chip TDP (CPUs, NICs, fans, PSU losses) at full load
 * @param loadFraction             average power over peak power
 * @param pue                      facility power over IT power
 * @param usdPerKwh                electricity price
 * @param availabilityFraction     fraction of wall time doing useful work (failures, restarts, maintenance)
 */
public record TcoParameters(double serverOverheadFactor, double interconnectFraction, double amortizationYears,
                            double serverPowerFactor, double loadFraction, double pue, double usdPerKwh,
                            double availabilityFraction) implements Serializable {
    private static final long serialVersionUID = 1L;
    /** Epoch AI training-cost model (MODEL.md sec. 8): server cost = 1.64 x GPU cost. */
    public static final double DEFAULT_SERVER_OVERHEAD_FACTOR = 1.64;
    /** MODEL.md sec. 8 (Epoch AI): cluster interconnect ~19% of cluster cost. */
    public static final double DEFAULT_INTERCONNECT_FRACTION = 0.19;
    /** MODEL.md sec. 8: straight-line 4-5 years; 4 taken (assumption: AI accelerators age fast). */
    public static final double DEFAULT_AMORTIZATION_YEARS = 4;
    /** MODEL.md sec. 8: server power ~ chip TDP x 1.8 (Epoch AI). */
    public static final double DEFAULT_SERVER_POWER_FACTOR = 1.8;
    /** MODEL.md sec. 8: 0.75 average load. */
    public static final double DEFAULT_LOAD_FRACTION = 0.75;
    /** MODEL.md sec. 8: PUE 1.1-1.25; 1.2 taken (assumption: midpoint, modern hyperscale ~1.1). */
    public static final double DEFAULT_PUE = 1.2;
    /** MODEL.md sec. 8: $0.08/kWh (US industrial average order of magnitude). */
    public static final double DEFAULT_USD_PER_KWH = 0.08;
    /** Assumption: 90% goodput (Llama 3 paper reports > 90% effective training time on 16k GPUs). */
    public static final double DEFAULT_AVAILABILITY_FRACTION = 0.90;

    public TcoParameters {
        List<InputError> errors = new ArrayList<>();
        check(errors, serverOverheadFactor >= 1, "tco.serverOverheadFactor", "a factor >= 1", serverOverheadFactor);
        check(errors, interconnectFraction >= 0 && interconnectFraction < 1, "tco.interconnectFraction",
                "a fraction in [0, 1)", interconnectFraction);
        check(errors, amortizationYears > 0, "tco.amortizationYears", "a positive number of years",
                amortizationYears);
        check(errors, serverPowerFactor >= 1, "tco.serverPowerFactor", "a factor >= 1", serverPowerFactor);
        check(errors, loadFraction > 0 && loadFraction <= 1, "tco.loadFraction", "a fraction in (0, 1]",
                loadFraction);
        check(errors, pue >= 1, "tco.pue", "a ratio >= 1", pue);
        check(errors, usdPerKwh >= 0, "tco.usdPerKwh", "a non-negative price", usdPerKwh);
        check(errors, availabilityFraction > 0 && availabilityFraction <= 1, "tco.availabilityFraction",
                "a fraction in (0, 1]", availabilityFraction);
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    private static void check(List<InputError> errors, boolean ok, String field, String expected, double found) {
        if (!ok || Double.isNaN(found)) {
            errors.add(InputError.of("tco parameters", field, expected, String.valueOf(found)));
        }
    }

    public static TcoParameters defaults() {
        return new TcoParameters(DEFAULT_SERVER_OVERHEAD_FACTOR, DEFAULT_INTERCONNECT_FRACTION,
                DEFAULT_AMORTIZATION_YEARS, DEFAULT_SERVER_POWER_FACTOR, DEFAULT_LOAD_FRACTION, DEFAULT_PUE,
                DEFAULT_USD_PER_KWH, DEFAULT_AVAILABILITY_FRACTION);
    }

    /** The eight parameters in component order (the order of the record components and the manifest's cost_*). */
    public double[] values() {
        return new double[]{serverOverheadFactor, interconnectFraction, amortizationYears, serverPowerFactor,
                loadFraction, pue, usdPerKwh, availabilityFraction};
    }

    /** Parameters from {@link #values()}-ordered numbers, checked like the constructor. */
    public static TcoParameters of(double[] v) {
        if (v.length != 8) {
            throw new IllegalArgumentException("8 TCO parameters, found " + v.length);
        }
        return new TcoParameters(v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
    }

    /** The eight parameters by name, in {@link #values()} order, for {@link #with}. */
    public enum Knob {
        SERVER_OVERHEAD_FACTOR, INTERCONNECT_FRACTION, AMORTIZATION_YEARS, SERVER_POWER_FACTOR, LOAD_FRACTION, PUE,
        USD_PER_KWH, AVAILABILITY_FRACTION
    }

    /** A copy with one parameter replaced, checked like the constructor. */
    public TcoParameters with(Knob knob, double v) {
        double[] all = values();
        all[knob.ordinal()] = v;
        return of(all);
    }
}
