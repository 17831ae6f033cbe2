package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.sweep.Metric;

import java.util.Locale;

/**
 * A hardware resource a design could spend on, as the sensitivity columns name it ({@code sens_<id>_...}): what +10%
 * of it means is in {@code engine.sensitivity.Perturbation}; what it costs in
 * {@code engine.sensitivity.ResourcePrices}.
 * Times that shrink (latency, launch overhead) improve by x 1/1.1, the same 10% more "speed" as a rate's x 1.1.
 */
public enum Resource {
    FLOPS("peak FLOP/s (plan's precision)", Metric.SENS_FLOPS_FRACTION),
    HBM_BW("HBM bandwidth", Metric.SENS_HBM_BW_FRACTION),
    HBM_CAPACITY("HBM capacity", Metric.SENS_HBM_CAPACITY_FRACTION),
    SCALE_UP_BW("scale-up bandwidth", Metric.SENS_SCALE_UP_BW_FRACTION),
    SCALE_OUT_BW("scale-out bandwidth", Metric.SENS_SCALE_OUT_BW_FRACTION),
    LATENCY("network latency", Metric.SENS_LATENCY_FRACTION),
    LAUNCH("kernel launch overhead", Metric.SENS_LAUNCH_FRACTION);

    /** Relative step of every sensitivity: +10% of the resource. */
    public static final double STEP_FRACTION = 0.10;

    private final String label;
    /** Its five columns, in Metric order: fixed plan, searched, TPOT, per kUSD, per kW. */
    private final Metric[] columns;

    Resource(String label, Metric first) {
        this.label = label;
        this.columns = java.util.Arrays.copyOfRange(Metric.values(), first.ordinal(), first.ordinal() + 5);
    }

    /** The id in column names and in {@code invest_first}: the lower-case name. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public String label() {
        return label;
    }

    /** Speed-up of tokens/s holding the plan ({@code sens_<id>_fraction}). */
    public Metric fixedPlan() {
        return columns[0];
    }

    /** Speed-up of tokens/s with the plan re-searched on the improved hardware. */
    public Metric searched() {
        return columns[1];
    }

    /** Inference: TPOT speed-up holding the plan. */
    public Metric tpot() {
        return columns[2];
    }

    /** The re-searched speed-up per 1000 USD per GPU. */
    public Metric perKiloUsd() {
        return columns[3];
    }

    /** The re-searched speed-up per kW per GPU. */
    public Metric perKiloWatt() {
        return columns[4];
    }

    /** The resource with this id, or null. */
    public static Resource byId(String id) {
        for (Resource r : values()) {
            if (r.id().equals(id)) {
                return r;
            }
        }
        return null;
    }
}
