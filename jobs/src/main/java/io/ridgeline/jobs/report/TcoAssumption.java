package io.ridgeline.jobs.report;

import io.ridgeline.engine.cost.TcoModel;
import io.ridgeline.engine.cost.TcoParameters;

import java.util.function.ToDoubleFunction;

/**
 * One editable cell of the workbook's Assumptions sheet: label, unit, source and its default from
 * {@link TcoParameters}. Sources repeat the constants' documentation in {@code TcoParameters}.
 */
public enum TcoAssumption {
    SERVER_OVERHEAD("Server cost over chip price", "x chip price",
            "Epoch AI training-cost model: server = 1.64 x GPU cost (MODEL.md sec. 8)",
            TcoParameters::serverOverheadFactor),
    INTERCONNECT_SHARE("Interconnect share of cluster capex", "fraction",
            "Epoch AI: cluster interconnect ~19% of cluster cost (MODEL.md sec. 8)",
            TcoParameters::interconnectFraction),
    AMORTIZATION_YEARS("Amortization period (straight line)", "years",
            "MODEL.md sec. 8: 4-5 years; 4 taken (assumption: accelerators age fast)",
            TcoParameters::amortizationYears),
    SERVER_POWER("Server power over chip TDP", "x chip TDP",
            "Epoch AI: server power ~ chip TDP x 1.8 (CPUs, NICs, fans, PSU losses; MODEL.md sec. 8)",
            TcoParameters::serverPowerFactor),
    LOAD("Average power utilisation (load)", "fraction",
            "MODEL.md sec. 8: 0.75 average power over peak power", TcoParameters::loadFraction),
    PUE("Power usage effectiveness (PUE)", "ratio",
            "MODEL.md sec. 8: PUE 1.1-1.25; 1.2 taken (midpoint; modern hyperscale ~1.1)", TcoParameters::pue),
    USD_PER_KWH("Electricity price", "USD/kWh",
            "MODEL.md sec. 8: $0.08/kWh (US industrial average, order of magnitude)", TcoParameters::usdPerKwh),
    AVAILABILITY("Availability (useful fraction of wall time)", "fraction",
            "Assumption: 90% goodput (Llama 3 paper: > 90% effective training time on 16k GPUs)",
            TcoParameters::availabilityFraction),
    HOURS_PER_YEAR("Hours per year", "h/year", "365.25 days x 24 h (TcoModel.HOURS_PER_YEAR)",
            p -> TcoModel.HOURS_PER_YEAR),
    RUN_TOKENS("Tokens per run (trained, or generated when serving)", "tokens",
            "The run's cost.tokens when it set one, else an assumption: GPT-3's 300 B training tokens (Brown et al. "
                    + "2020); --run-tokens overrides", p -> Double.NaN);

    /** Default of {@link #RUN_TOKENS}. */
    public static final double DEFAULT_RUN_TOKENS = 300e9;

    private final String label;
    private final String unit;
    private final String source;
    private final ToDoubleFunction<TcoParameters> value;

    TcoAssumption(String label, String unit, String source, ToDoubleFunction<TcoParameters> value) {
        this.label = label;
        this.unit = unit;
        this.source = source;
        this.value = value;
    }

    public String label() {
        return label;
    }

    public String unit() {
        return unit;
    }

    public String source() {
        return source;
    }

    /** The value under these parameters ({@link #RUN_TOKENS} is not a TCO parameter: NaN). */
    public double value(TcoParameters p) {
        return value.applyAsDouble(p);
    }
}
