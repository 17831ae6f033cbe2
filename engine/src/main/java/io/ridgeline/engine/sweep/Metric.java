package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.training.TrainingResult;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The numeric result columns a sweep can constrain and optimise. Names are the Parquet column names of the points and
 * frontier tables (results-schema checks they match). Values are computed once per evaluated plan into a reused
 * {@code double[]} indexed by {@link #ordinal()}.
 */
public enum Metric {
    STEP_TIME_S, TOKENS_PER_S, TOKENS_PER_S_PER_GPU, MFU_FRACTION, HFU_FRACTION,
    COMPUTE_S, MEMORY_BOUND_S, TP_COMM_S, CP_COMM_S, EP_COMM_S, PP_COMM_S, DP_COMM_S, BUBBLE_S, OPTIMIZER_S,
    OVERHEAD_S,
    WEIGHT_BYTES, GRADIENT_BYTES, OPTIMIZER_BYTES, ACTIVATION_BYTES, RESERVE_BYTES, HBM_BYTES, HBM_CAPACITY_BYTES,
    ENERGY_PER_STEP_J, ENERGY_PER_TOKEN_J, CLUSTER_POWER_W, CLUSTER_TDP_W, COST_USD, GPU_COUNT;

    private static final List<String> COLUMNS = Arrays.stream(values()).map(Metric::column).toList();

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

    /**
     * Fills {@code out} from one evaluated plan.
     *
     * @param tokensPerStep global batch x sequence length
     */
    public static void fill(double[] out, TrainingResult r, Chip chip, int gpuCount, double tokensPerStep) {
        out[STEP_TIME_S.ordinal()] = r.stepTimeSeconds();
        out[TOKENS_PER_S.ordinal()] = r.tokensPerSecond();
        out[TOKENS_PER_S_PER_GPU.ordinal()] = r.tokensPerSecond() / gpuCount;
        out[MFU_FRACTION.ordinal()] = r.mfuFraction();
        out[HFU_FRACTION.ordinal()] = r.hfuFraction();
        out[COMPUTE_S.ordinal()] = r.computeSeconds();
        out[MEMORY_BOUND_S.ordinal()] = r.memoryBoundSeconds();
        out[TP_COMM_S.ordinal()] = r.tpCommSeconds();
        out[CP_COMM_S.ordinal()] = r.cpCommSeconds();
        out[EP_COMM_S.ordinal()] = r.epCommSeconds();
        out[PP_COMM_S.ordinal()] = r.ppCommSeconds();
        out[DP_COMM_S.ordinal()] = r.dpCommSeconds();
        out[BUBBLE_S.ordinal()] = r.bubbleSeconds();
        out[OPTIMIZER_S.ordinal()] = r.optimizerSeconds();
        out[OVERHEAD_S.ordinal()] = r.overheadSeconds();
        out[WEIGHT_BYTES.ordinal()] = r.weightBytes();
        out[GRADIENT_BYTES.ordinal()] = r.gradientBytes();
        out[OPTIMIZER_BYTES.ordinal()] = r.optimizerBytes();
        out[ACTIVATION_BYTES.ordinal()] = r.activationBytes();
        out[RESERVE_BYTES.ordinal()] = r.reserveBytes();
        out[HBM_BYTES.ordinal()] = r.totalMemoryBytes();
        out[HBM_CAPACITY_BYTES.ordinal()] = r.memoryCapacityBytes();
        out[ENERGY_PER_STEP_J.ordinal()] = r.energyJoules();
        out[ENERGY_PER_TOKEN_J.ordinal()] = r.energyJoules() / tokensPerStep;
        out[CLUSTER_POWER_W.ordinal()] = r.averagePowerWatts();
        out[CLUSTER_TDP_W.ordinal()] = chip.tdpWatts() * gpuCount;
        // Accelerator capital cost only (catalogue street-price assumption); TCO lives in the cost package.
        out[COST_USD.ordinal()] = chip.priceUsd() * gpuCount;
        out[GPU_COUNT.ordinal()] = gpuCount;
    }

    /** Fills the metrics of a point that has no evaluated plan: everything NaN except what the hardware fixes. */
    public static void fillUnevaluated(double[] out, Chip chip, int gpuCount) {
        Arrays.fill(out, Double.NaN);
        out[HBM_CAPACITY_BYTES.ordinal()] = chip.memoryBytes();
        out[CLUSTER_TDP_W.ordinal()] = chip.tdpWatts() * gpuCount;
        out[COST_USD.ordinal()] = chip.priceUsd() * gpuCount;
        out[GPU_COUNT.ordinal()] = gpuCount;
    }
}
