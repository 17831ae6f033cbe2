package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceResult;
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
    ENERGY_PER_STEP_J, ENERGY_PER_TOKEN_J, CLUSTER_POWER_W, CLUSTER_TDP_W, COST_USD, GPU_COUNT,
    // inference (schema 2): null on training rows
    TTFT_S, TPOT_S, E2E_LATENCY_S, OUTPUT_TOKENS_PER_S_PER_GPU, SERVING_OUTPUT_TOKENS_PER_S_PER_GPU, MAX_BATCH,
    KV_CACHE_BYTES,
    // TCO (schema 2, cost package): every phase
    USD_PER_GPU_HOUR, USD_PER_MILLION_TOKENS, RUN_COST_USD, WALL_ENERGY_PER_TOKEN_J, CLUSTER_CAPEX_USD,
    FABRIC_CAPEX_USD;

    private static final List<String> COLUMNS = Arrays.stream(values()).map(Metric::column).toList();

    /** Whether rows of this phase fill the column (training-only and inference-only columns are null otherwise). */
    public boolean filledBy(SweepSpec.Phase phase) {
        boolean inferenceOnly = ordinal() >= TTFT_S.ordinal() && ordinal() <= KV_CACHE_BYTES.ordinal();
        boolean trainingOnly = switch (this) {
            case STEP_TIME_S, MFU_FRACTION, HFU_FRACTION, CP_COMM_S, EP_COMM_S, PP_COMM_S, DP_COMM_S, BUBBLE_S,
                 OPTIMIZER_S, GRADIENT_BYTES, OPTIMIZER_BYTES, ENERGY_PER_STEP_J -> true;
            default -> false;
        };
        return phase == SweepSpec.Phase.INFERENCE ? !trainingOnly : !inferenceOnly;
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
        for (int i = TTFT_S.ordinal(); i <= KV_CACHE_BYTES.ordinal(); i++) {
            out[i] = Double.NaN; // inference-only columns
        }
    }

    /**
     * Fills {@code out} from one evaluated inference plan. Throughput columns shared with training count generated
     * tokens: {@code tokens_per_s} is the static-batch output rate of all {@code dp} replicas, per GPU of the whole
     * cluster in {@code tokens_per_s_per_gpu}; {@code tp_comm_s} holds all of the request's communication (TP
     * all-reduces and PP sends); {@code energy_per_token_j} is per generated token. Step, MFU and training-only
     * columns stay NaN (null).
     */
    public static void fillInference(double[] out, InferenceResult r, InferencePlan plan, Chip chip, int gpuCount) {
        Arrays.fill(out, Double.NaN);
        double clusterTokensPerSecond = r.outputTokensPerSecondPerGpu() * plan.gpus();
        out[TOKENS_PER_S.ordinal()] = clusterTokensPerSecond;
        out[TOKENS_PER_S_PER_GPU.ordinal()] = clusterTokensPerSecond / gpuCount;
        out[COMPUTE_S.ordinal()] = r.computeSeconds();
        out[MEMORY_BOUND_S.ordinal()] = r.memoryBoundSeconds();
        out[TP_COMM_S.ordinal()] = r.communicationSeconds();
        out[OVERHEAD_S.ordinal()] = r.overheadSeconds();
        fillInferenceMemory(out, r, chip, gpuCount);
        out[ENERGY_PER_TOKEN_J.ordinal()] = r.joulesPerOutputToken();
        out[CLUSTER_POWER_W.ordinal()] = r.averagePowerWatts() * plan.dp();
        out[TTFT_S.ordinal()] = r.ttftSeconds();
        out[TPOT_S.ordinal()] = r.tpotSeconds();
        out[E2E_LATENCY_S.ordinal()] = r.e2eLatencySeconds();
        out[OUTPUT_TOKENS_PER_S_PER_GPU.ordinal()] = r.outputTokensPerSecondPerGpu();
        out[SERVING_OUTPUT_TOKENS_PER_S_PER_GPU.ordinal()] = r.servingOutputTokensPerSecondPerGpu();
        out[MAX_BATCH.ordinal()] = r.maxBatch();
    }

    /** Memory columns of an inference result (also for an infeasible one: they say by how much it misses). */
    public static void fillInferenceMemory(double[] out, InferenceResult r, Chip chip, int gpuCount) {
        out[WEIGHT_BYTES.ordinal()] = r.weightBytes();
        out[ACTIVATION_BYTES.ordinal()] = r.activationBytes();
        out[RESERVE_BYTES.ordinal()] = r.reserveBytes();
        out[KV_CACHE_BYTES.ordinal()] = r.kvCacheBytes();
        out[HBM_BYTES.ordinal()] = r.totalMemoryBytes();
        out[HBM_CAPACITY_BYTES.ordinal()] = Double.isNaN(r.memoryCapacityBytes()) ? chip.memoryBytes()
                : r.memoryCapacityBytes();
        out[CLUSTER_TDP_W.ordinal()] = chip.tdpWatts() * gpuCount;
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
