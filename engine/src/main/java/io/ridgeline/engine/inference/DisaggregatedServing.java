package io.ridgeline.engine.inference;

import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Steady state of disaggregated serving at saturation (DistServe, OSDI'24; Splitwise, ISCA'24). The prefill pool runs
 * prompts only (continuous batching with one output token: the first token comes out of prefill); the decode pool
 * runs decode-only steps over requests that arrive with their KV cache; between them each request's KV cache
 * ({@code input tokens x KV bytes per token} over the prefill replica's GPUs) crosses the scale-up network when both
 * pools fit in one scale-up domain, else the scale-out network, each prefill GPU sending its shard at its link rate.
 * The system's request rate is the least of what the prefill pool, the decode pool and the KV links sustain; TTFT is
 * the prefill step plus the transfer; TPOT is the decode pool's step. Not thread-safe.
 */
public final class DisaggregatedServing {
    private final InferenceStep prefillStep = new InferenceStep();
    private final InferenceStep decodeStep = new InferenceStep();
    private final double[] decodeOut = new double[3];

    /** What bounds the request rate. */
    public enum Limit { PREFILL, DECODE, KV_TRANSFER }

    /**
     * @param requestsPerSecond          sustained requests per second of the whole deployment
     * @param outputTokensPerSecondPerGpu output tokens per second over all prefill and decode GPUs
     * @param ttftSeconds                prefill (from admission) plus the KV transfer
     * @param tpotSeconds                the decode pool's step time
     * @param kvTransferSeconds          one request's KV-cache transfer
     * @param limit                      the pool or link that bounds the rate
     */
    public record Result(double requestsPerSecond, double outputTokensPerSecondPerGpu, double ttftSeconds,
                         double tpotSeconds, double kvTransferSeconds, Limit limit) {
    }

    public Result evaluate(ModelSpec model, SystemSpec system, DisaggregatedPlan plan, int inputTokens,
                           int outputTokens) {
        InferenceResult p = prefillStep.evaluate(model, system, plan.prefill(),
                InferenceWorkload.saturated(inputTokens, 1));
        double prefillRate = p.outputTokensPerSecondPerGpu() * plan.prefillGpus(); // one token per prompt
        decodeStep.decodePool(model, system, plan.decode(), inputTokens, outputTokens, decodeOut);
        double decodeRate = decodeOut[2] / outputTokens * plan.decodeReplicas();
        // The request's KV cache: per-GPU bytes per token x the prefill replica's GPUs x input tokens.
        double requestKvBytes = prefillStep.kvBytesPerTokenPerGpu() * plan.prefill().gpusPerReplica() * inputTokens;
        boolean sameDomain = plan.gpus() <= system.scaleUpDomain();
        double perGpuBytesPerSecond = sameDomain ? system.scaleUpBytesPerSecond()
                : system.scaleOut().bytesPerSecond() * system.scaleOut().efficiency();
        double transfer = requestKvBytes / (plan.prefill().gpusPerReplica() * perGpuBytesPerSecond);
        double linkRate = plan.prefillGpus() * perGpuBytesPerSecond / requestKvBytes;
        double rate = Math.min(prefillRate, Math.min(decodeRate, linkRate));
        Limit limit = rate == prefillRate ? Limit.PREFILL : rate == decodeRate ? Limit.DECODE : Limit.KV_TRANSFER;
        if (!p.feasible() || !(decodeOut[0] >= 1)) {
            rate = Double.NaN;
        }
        return new Result(rate, rate * outputTokens / plan.gpus(), p.ttftSeconds() + transfer, decodeOut[1], transfer,
                limit);
    }
}
