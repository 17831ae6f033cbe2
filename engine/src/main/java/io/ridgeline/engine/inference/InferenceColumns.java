package io.ridgeline.engine.inference;

import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.sweep.Metric;

import java.util.Arrays;

/** How an inference plan and its result read as result columns (metrics row and plan cells). */
public final class InferenceColumns {
    private InferenceColumns() {
    }

    /**
     * The metrics of one evaluated inference plan. Throughput columns shared with training count generated tokens:
     * {@code tokens_per_s} is the static-batch output rate of all {@code dp} replicas, per GPU of the whole cluster in
     * {@code tokens_per_s_per_gpu}; {@code tp_comm_s} holds all of the request's communication (TP all-reduces and PP
     * sends); {@code energy_per_token_j} is per generated token; {@code output_tokens_per_s_per_user} is 1 / tpot,
     * {@code in_flight_requests} the static batch or where continuous batching settles per replica. Step, MFU and
     * training-only columns stay NaN (null).
     */
    public static void fill(double[] out, InferenceResult r, InferencePlan plan, Chip chip, int gpuCount) {
        Arrays.fill(out, Double.NaN);
        double clusterTokensPerSecond = r.outputTokensPerSecondPerGpu() * plan.gpus();
        out[Metric.TOKENS_PER_S.ordinal()] = clusterTokensPerSecond;
        out[Metric.TOKENS_PER_S_PER_GPU.ordinal()] = clusterTokensPerSecond / gpuCount;
        out[Metric.COMPUTE_S.ordinal()] = r.computeSeconds();
        out[Metric.MEMORY_BOUND_S.ordinal()] = r.memoryBoundSeconds();
        out[Metric.TP_COMM_S.ordinal()] = r.communicationSeconds();
        out[Metric.OVERHEAD_S.ordinal()] = r.overheadSeconds();
        fillMemory(out, r, chip, gpuCount);
        out[Metric.ENERGY_PER_TOKEN_J.ordinal()] = r.joulesPerOutputToken();
        out[Metric.CLUSTER_POWER_W.ordinal()] = r.averagePowerWatts() * plan.dp();
        out[Metric.TTFT_S.ordinal()] = r.ttftSeconds();
        out[Metric.TPOT_S.ordinal()] = r.tpotSeconds();
        out[Metric.E2E_LATENCY_S.ordinal()] = r.e2eLatencySeconds();
        out[Metric.OUTPUT_TOKENS_PER_S_PER_GPU.ordinal()] = r.outputTokensPerSecondPerGpu();
        out[Metric.SERVING_OUTPUT_TOKENS_PER_S_PER_GPU.ordinal()] = r.servingOutputTokensPerSecondPerGpu();
        out[Metric.MAX_BATCH.ordinal()] = r.maxBatch();
        out[Metric.OUTPUT_TOKENS_PER_S_PER_USER.ordinal()] = r.outputTokensPerSecondPerUser();
        out[Metric.IN_FLIGHT_REQUESTS.ordinal()] = r.concurrency();
        out[Metric.REQUESTS_PER_S.ordinal()] = clusterTokensPerSecond / r.outputTokens();
    }

    /**
     * The metrics of a disaggregated deployment ({@link DisaggregatedServing}): {@code plan.dp()} replicas in
     * {@code units} deployment units of {@code prefill + decode} replicas each. Throughput over all its GPUs, TTFT =
     * prefill + KV transfer, TPOT the decode step, requests in flight per decode replica; memory columns from a
     * prefill replica. The time breakdown, energy and max batch are not modelled for the split (null).
     */
    public static void fillDisaggregated(double[] out, DisaggregatedServing.Result r, InferencePlan plan, Chip chip,
                                         int gpuCount, int outputTokens, int prefill, int decode) {
        Arrays.fill(out, Double.NaN);
        int units = plan.dp() / (prefill + decode);
        double clusterRequestsPerSecond = r.requestsPerSecond() * units;
        double clusterTokensPerSecond = clusterRequestsPerSecond * outputTokens;
        out[Metric.TOKENS_PER_S.ordinal()] = clusterTokensPerSecond;
        out[Metric.TOKENS_PER_S_PER_GPU.ordinal()] = clusterTokensPerSecond / gpuCount;
        fillMemory(out, r.prefill(), chip, gpuCount);
        out[Metric.TTFT_S.ordinal()] = r.ttftSeconds();
        out[Metric.TPOT_S.ordinal()] = r.tpotSeconds();
        out[Metric.E2E_LATENCY_S.ordinal()] = r.ttftSeconds() + (outputTokens - 1) * r.tpotSeconds();
        out[Metric.OUTPUT_TOKENS_PER_S_PER_GPU.ordinal()] = r.outputTokensPerSecondPerGpu();
        out[Metric.SERVING_OUTPUT_TOKENS_PER_S_PER_GPU.ordinal()] = r.outputTokensPerSecondPerGpu();
        out[Metric.OUTPUT_TOKENS_PER_S_PER_USER.ordinal()] = 1 / r.tpotSeconds();
        out[Metric.IN_FLIGHT_REQUESTS.ordinal()] = r.decodeConcurrency();
        out[Metric.REQUESTS_PER_S.ordinal()] = clusterRequestsPerSecond;
        out[Metric.KV_TRANSFER_S.ordinal()] = r.kvTransferSeconds();
        out[Metric.PREFILL_GPUS.ordinal()] = units * prefill * plan.gpusPerReplica();
        out[Metric.DECODE_GPUS.ordinal()] = units * decode * plan.gpusPerReplica();
    }

    /** Memory columns of an inference result (also for an infeasible one: they say by how much it misses). */
    public static void fillMemory(double[] out, InferenceResult r, Chip chip, int gpuCount) {
        out[Metric.WEIGHT_BYTES.ordinal()] = r.weightBytes();
        out[Metric.ACTIVATION_BYTES.ordinal()] = r.activationBytes();
        out[Metric.RESERVE_BYTES.ordinal()] = r.reserveBytes();
        out[Metric.KV_CACHE_BYTES.ordinal()] = r.kvCacheBytes();
        out[Metric.HBM_BYTES.ordinal()] = r.totalMemoryBytes();
        out[Metric.HBM_CAPACITY_BYTES.ordinal()] = Double.isNaN(r.memoryCapacityBytes()) ? chip.memoryBytes()
                : r.memoryCapacityBytes();
        Metric.fillCluster(out, chip, gpuCount);
    }

    /** The plan cells of an inference row: its parallel sizes, math precision and attention kernel. */
    public static void write(InferencePlan plan, ResultRow row) {
        row.plan(plan).set(ResultRow.Count.TP, plan.tp()).set(ResultRow.Count.PP, plan.pp())
                .set(ResultRow.Count.DP, plan.dp())
                .set(ResultRow.Count.EP, plan.ep()).set(ResultRow.Text.PRECISION, plan.computePrecision().id())
                .set(ResultRow.Flag.FLASH_ATTENTION, plan.fusedAttention());
    }
}
