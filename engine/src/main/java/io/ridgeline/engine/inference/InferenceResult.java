package io.ridgeline.engine.inference;

import io.ridgeline.engine.evaluation.Bottleneck;
import io.ridgeline.engine.evaluation.Infeasibility;
import io.ridgeline.engine.evaluation.PlanResult;

/**
 * One evaluated inference point for one replica. Times in seconds, bytes per GPU (most loaded pipeline stage).
 * What the latency and throughput fields mean depends on the {@link ServingMode}:
 * <ul>
 *   <li>static: the static batch, from its arrival to its last token; the breakdown ({@code computeSeconds} ...
 *       {@code overheadSeconds}) adds up to {@code e2eLatencySeconds};</li>
 *   <li>saturated: ttft from admission to the first token (the benchmark's queue in front of the engine is not
 *       counted: at an unlimited rate it only grows), tpot the mean step (inter-token latency), e2e = ttft + (O - 1)
 *       tpot, throughput the maximum sustained output tokens/s per GPU, {@code concurrency} the requests in flight
 *       it settles at; the breakdown covers one request's lifetime of steps;</li>
 *   <li>online: ttft including the queue (clients beyond what the replica runs, or Little's law at a request rate;
 *       +infinity when the rate exceeds the saturated throughput), tpot the inter-token latency of mixed steps,
 *       throughput per GPU at that load, {@code outputTokensPerSecondPerUser} = 1 / tpot.</li>
 * </ul>
 *
 * @param ttftSeconds                         request overhead + prefill of the static batch
 * @param tpotSeconds                         mean decode step over the generated tokens (context grows); for a
 *                                            one-token output, the step that would follow
 * @param e2eLatencySeconds                   ttft + sum of decode steps
 * @param outputTokensPerSecondPerGpu         static batch: batch x output tokens / e2e / GPUs of the replica
 * @param servingOutputTokensPerSecondPerGpu  continuous batching at the workload's concurrency (capped at maxBatch)
 * @param servingBatch                        requests decoding together under continuous batching
 * @param maxBatch                            largest batch the KV cache allows at full context
 * @param energyJoules                        accelerator energy of the static-batch request over the replica's GPUs,
 *                                            bottom-up (MODEL.md sec. 8), capped at TDP x e2e per GPU
 * @param averagePowerWatts                   per GPU: energy / e2e / GPUs
 * @param dramBytes                           DRAM bytes per GPU over the request (weights, KV cache, activations)
 * @param networkBytes                        bytes each GPU sends over the request (TP all-reduces, PP hand-offs)
 * @param mode                                how requests arrived (what the fields above mean)
 * @param concurrency                         requests in flight (static: the batch; continuous: where it settles)
 * @param outputTokensPerSecondPerUser        one request's output speed, 1 / tpot
 * @param flops                               FLOPs of the replica's GPUs over the request (the energy model's)
 * @param scaleOutBytes                       of {@code networkBytes}, what leaves the scale-up domain (per GPU)
 */
public record InferenceResult(
        Infeasibility infeasibility, String detail,
        double ttftSeconds, double prefillSeconds, double tpotSeconds, double decodeSeconds, double e2eLatencySeconds,
        double outputTokensPerSecondPerGpu, double servingOutputTokensPerSecondPerGpu, int servingBatch, int maxBatch,
        double weightBytes, double kvCacheBytes, double activationBytes, double reserveBytes,
        double memoryCapacityBytes,
        double computeSeconds, double memoryBoundSeconds, double communicationSeconds, double overheadSeconds,
        Bottleneck bottleneck, double energyJoules, double averagePowerWatts, int gpusPerReplica, int batch,
        int outputTokens, double dramBytes, double networkBytes, ServingMode mode, double concurrency,
        double outputTokensPerSecondPerUser, double flops, double scaleOutBytes) implements PlanResult {

    /**
     * Why the point is infeasible, as text ("" when feasible). For memory overflow the message is built here, on
     * demand, from the numbers: sweeps reject many points for memory and never read the text, so formatting it per
     * evaluation would dominate their hot loop.
     */
    @Override
    public String detail() {
        if (detail == null && infeasibility == Infeasibility.MEMORY_CAPACITY) {
            double gib = 1024.0 * 1024 * 1024;
            return String.format(java.util.Locale.ROOT,
                    "needs %.1f GiB per GPU (weights %.1f, KV cache %.1f, activations %.1f, reserve %.1f) but has %.1f GiB",
                    totalMemoryBytes() / gib, weightBytes / gib, kvCacheBytes / gib, activationBytes / gib,
                    reserveBytes / gib, memoryCapacityBytes / gib);
        }
        return detail;
    }


    /** Everything resident on the most loaded GPU. */
    @Override
    public double totalMemoryBytes() {
        return weightBytes + kvCacheBytes + activationBytes + reserveBytes;
    }

    /** Energy of the whole static batch (continuous: the requests in flight) over their generated tokens. */
    public double joulesPerOutputToken() {
        return energyJoules / ((double) batch * outputTokens);
    }

    /** A point that cannot be evaluated (plan shape, GPU count): no times, only the reason. */
    static InferenceResult invalid(Infeasibility why, String detail, int gpusPerReplica, int batch, int outputTokens,
                                   ServingMode mode) {
        double nan = Double.NaN;
        return new InferenceResult(why, detail, nan, nan, nan, nan, nan, nan, nan, 0, 0, nan, nan, nan, nan, nan, nan,
                nan, nan, nan, Bottleneck.OVERHEAD, nan, nan, gpusPerReplica, batch, outputTokens, nan, nan, mode, nan,
                nan, nan, nan);
    }
}
