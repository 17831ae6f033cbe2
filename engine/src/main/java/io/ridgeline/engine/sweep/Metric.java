package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.Chip;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The numeric result columns a sweep can constrain and optimise. Names are the Parquet column names of the points and
 * frontier tables (results-schema checks they match). Values are computed once per evaluated plan into a reused
 * {@code double[]} indexed by {@link #ordinal()}, by each phase's engine (training.TrainingColumns,
 * inference.InferenceColumns) and the TCO columns (evaluation.CostColumns); NaN is null.
 */
public enum Metric {
    STEP_TIME_S, TOKENS_PER_S, TOKENS_PER_S_PER_GPU, MFU_FRACTION, HFU_FRACTION,
    COMPUTE_S, MEMORY_BOUND_S, TP_COMM_S, CP_COMM_S, EP_COMM_S, PP_COMM_S, DP_COMM_S, BUBBLE_S, OPTIMIZER_S,
    OVERHEAD_S,
    WEIGHT_BYTES, GRADIENT_BYTES, OPTIMIZER_BYTES, ACTIVATION_BYTES, RESERVE_BYTES, HBM_BYTES, HBM_CAPACITY_BYTES,
    ENERGY_PER_STEP_J, ENERGY_PER_TOKEN_J, CLUSTER_POWER_W, CLUSTER_TDP_W, COST_USD, GPU_COUNT,
    // inference (schema 2): null on training rows
    TTFT_S, TPOT_S, E2E_LATENCY_S, OUTPUT_TOKENS_PER_S_PER_GPU, SERVING_OUTPUT_TOKENS_PER_S_PER_GPU, MAX_BATCH,
    KV_CACHE_BYTES,
    // TCO (schema 2, cost package): every phase
    USD_PER_GPU_HOUR, USD_PER_MILLION_TOKENS, RUN_COST_USD, WALL_ENERGY_PER_TOKEN_J, CLUSTER_CAPEX_USD,
    FABRIC_CAPEX_USD,
    // energy by component (schema 3 additions): every phase; they add up to energy_per_token_j
    ENERGY_COMPUTE_PER_TOKEN_J, ENERGY_DRAM_PER_TOKEN_J, ENERGY_SCALE_UP_PER_TOKEN_J, ENERGY_SCALE_OUT_PER_TOKEN_J,
    ENERGY_STATIC_PER_TOKEN_J, POWER_OF_TDP_FRACTION,
    // sensitivity (output.sensitivity, engine.sensitivity): +10% of one resource; null unless the option is on
    SENS_FLOPS_FRACTION, SENS_FLOPS_SEARCH_FRACTION, SENS_FLOPS_TPOT_FRACTION,
    SENS_FLOPS_FRACTION_PER_KUSD, SENS_FLOPS_FRACTION_PER_KW,
    SENS_HBM_BW_FRACTION, SENS_HBM_BW_SEARCH_FRACTION, SENS_HBM_BW_TPOT_FRACTION,
    SENS_HBM_BW_FRACTION_PER_KUSD, SENS_HBM_BW_FRACTION_PER_KW,
    SENS_HBM_CAPACITY_FRACTION, SENS_HBM_CAPACITY_SEARCH_FRACTION, SENS_HBM_CAPACITY_TPOT_FRACTION,
    SENS_HBM_CAPACITY_FRACTION_PER_KUSD, SENS_HBM_CAPACITY_FRACTION_PER_KW,
    SENS_SCALE_UP_BW_FRACTION, SENS_SCALE_UP_BW_SEARCH_FRACTION, SENS_SCALE_UP_BW_TPOT_FRACTION,
    SENS_SCALE_UP_BW_FRACTION_PER_KUSD, SENS_SCALE_UP_BW_FRACTION_PER_KW,
    SENS_SCALE_OUT_BW_FRACTION, SENS_SCALE_OUT_BW_SEARCH_FRACTION, SENS_SCALE_OUT_BW_TPOT_FRACTION,
    SENS_SCALE_OUT_BW_FRACTION_PER_KUSD, SENS_SCALE_OUT_BW_FRACTION_PER_KW,
    SENS_LATENCY_FRACTION, SENS_LATENCY_SEARCH_FRACTION, SENS_LATENCY_TPOT_FRACTION,
    SENS_LATENCY_FRACTION_PER_KUSD, SENS_LATENCY_FRACTION_PER_KW,
    SENS_LAUNCH_FRACTION, SENS_LAUNCH_SEARCH_FRACTION, SENS_LAUNCH_TPOT_FRACTION,
    SENS_LAUNCH_FRACTION_PER_KUSD, SENS_LAUNCH_FRACTION_PER_KW,
    // serving (issue 10, appended after software): null on training rows; the last three on aggregated rows
    OUTPUT_TOKENS_PER_S_PER_USER, IN_FLIGHT_REQUESTS, REQUESTS_PER_S, KV_TRANSFER_S, PREFILL_GPUS, DECODE_GPUS,
    // prediction intervals (schema 4, issue 11; engine.calibration.IntervalColumns): the low and high end of each
    // main output at the run's coverage, filled after the plan is chosen (like the sensitivities), so never an
    // objective or a bound; null where the output has none (memory never has one)
    STEP_TIME_S_LO, STEP_TIME_S_HI, TOKENS_PER_S_LO, TOKENS_PER_S_HI, TTFT_S_LO, TTFT_S_HI, TPOT_S_LO, TPOT_S_HI,
    E2E_LATENCY_S_LO, E2E_LATENCY_S_HI, OUTPUT_TOKENS_PER_S_PER_GPU_LO, OUTPUT_TOKENS_PER_S_PER_GPU_HI;

    /** The outputs with interval columns, each followed by its _lo and _hi column. */
    private static final Metric[][] INTERVALS = {{STEP_TIME_S, STEP_TIME_S_LO, STEP_TIME_S_HI},
        {TOKENS_PER_S, TOKENS_PER_S_LO, TOKENS_PER_S_HI}, {TTFT_S, TTFT_S_LO, TTFT_S_HI},
        {TPOT_S, TPOT_S_LO, TPOT_S_HI}, {E2E_LATENCY_S, E2E_LATENCY_S_LO, E2E_LATENCY_S_HI},
        {OUTPUT_TOKENS_PER_S_PER_GPU, OUTPUT_TOKENS_PER_S_PER_GPU_LO, OUTPUT_TOKENS_PER_S_PER_GPU_HI}};

    private static final List<String> COLUMNS = Arrays.stream(values()).map(Metric::column).toList();
    /** Ordinals of the columns only inference rows fill. */
    private static final int[] INFERENCE_ONLY = Arrays.stream(values())
            .filter(m -> !m.filledBy(SweepSpec.Phase.TRAINING)).mapToInt(Metric::ordinal).toArray();

    /** Whether rows of this phase fill the column (training-only and inference-only columns are null otherwise). */
    public boolean filledBy(SweepSpec.Phase phase) {
        boolean inferenceOnly = ordinal() >= TTFT_S.ordinal() && ordinal() <= KV_CACHE_BYTES.ordinal()
                || ordinal() >= OUTPUT_TOKENS_PER_S_PER_USER.ordinal() && ordinal() <= DECODE_GPUS.ordinal();
        boolean trainingOnly = switch (this) {
            case STEP_TIME_S, MFU_FRACTION, HFU_FRACTION, CP_COMM_S, EP_COMM_S, PP_COMM_S, DP_COMM_S, BUBBLE_S,
                 OPTIMIZER_S, GRADIENT_BYTES, OPTIMIZER_BYTES, ENERGY_PER_STEP_J -> true;
            default -> false;
        };
        if (sensitivity() || interval()) {
            return false; // filled after the plan is chosen: not an objective or a bound
        }
        return phase == SweepSpec.Phase.INFERENCE ? !trainingOnly : !inferenceOnly;
    }

    /** A sensitivity column (sens_*): filled only when the sweep's output.sensitivity is on. */
    public boolean sensitivity() {
        return ordinal() >= SENS_FLOPS_FRACTION.ordinal() && ordinal() <= SENS_LAUNCH_FRACTION_PER_KW.ordinal();
    }

    /** An interval column ({@code _lo}/{@code _hi} of a main output): filled after the plan is chosen. */
    public boolean interval() {
        return ordinal() >= STEP_TIME_S_LO.ordinal();
    }

    /** The _lo column of an output with an interval, or null (memory, costs, ...: no interval). */
    public Metric low() {
        for (Metric[] m : INTERVALS) {
            if (m[0] == this) {
                return m[1];
            }
        }
        return null;
    }

    /** The _hi column of an output with an interval, or null. */
    public Metric high() {
        Metric lo = low();
        return lo == null ? null : values()[lo.ordinal() + 1];
    }

    /** The snake_case column name with its unit suffix. */
    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static List<String> columns() {
        return COLUMNS;
    }

    /** The metric with this column name, or null. */
    public static Metric byColumn(String column) {
        for (Metric m : values()) {
            if (m.column().equals(column)) {
                return m;
            }
        }
        return null;
    }

    /** Empties (NaN) the inference-only columns: a training plan's metrics must not keep an earlier row's values. */
    public static void clearInferenceOnly(double[] out) {
        for (int i : INFERENCE_ONLY) {
            out[i] = Double.NaN;
        }
    }

    /** Fills the metrics of a point that has no evaluated plan: everything NaN except what the hardware fixes. */
    public static void fillUnevaluated(double[] out, Chip chip, int gpuCount) {
        Arrays.fill(out, Double.NaN);
        out[HBM_CAPACITY_BYTES.ordinal()] = chip.memoryBytes();
        fillCluster(out, chip, gpuCount);
    }

    /**
     * The columns of the cluster itself, whatever runs on it: its TDP, its accelerators' capital cost (catalogue
     * street price; TCO lives in the cost package) and its GPU count.
     */
    public static void fillCluster(double[] out, Chip chip, int gpuCount) {
        out[CLUSTER_TDP_W.ordinal()] = chip.tdpWatts() * gpuCount;
        out[COST_USD.ordinal()] = chip.priceUsd() * gpuCount;
        out[GPU_COUNT.ordinal()] = gpuCount;
    }
}
