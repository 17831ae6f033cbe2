package io.ridgeline.engine.inference;

import io.ridgeline.engine.evaluation.Bottleneck;
import io.ridgeline.engine.evaluation.Infeasibility;
import io.ridgeline.engine.evaluation.PlanResult;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Steady state of disaggregated serving at saturation (DistServe, OSDI'24; Splitwise, ISCA'24). The prefill pool runs
 * prompts only (continuous batching with one output token: the first token comes out of prefill); the decode pool
 * runs decode-only steps over requests that arrive with their KV cache; between them each request's KV cache
 * ({@code input tokens x KV bytes per token} over the prefill replica's GPUs) crosses the scale-up network when both
 * pools fit in one scale-up domain, else the scale-out network, each prefill GPU sending its shard at its link rate.
 * The system's request rate is the least of what the prefill pool, the decode pool and the KV links sustain; TTFT is
 * the prefill pool's (at saturation) plus the transfer; TPOT is the decode pool's step. When the prefill pool or the
 * links bind, the decode replicas hold fewer requests than they could and their steps are shorter: the decode
 * concurrency is the one whose request rate matches (bisection; decode rate grows with concurrency). Not
 * thread-safe; no allocation besides the result.
 */
public final class DisaggregatedServing {
    /** Bisection steps for the decode concurrency that carries a lower request rate (2^-30 of the range). */
    private static final int BISECTIONS = 30;
    private final InferenceStep prefillStep;
    private final InferenceStep decodeStep;
    private static final Bottleneck[] BOTTLENECKS = Bottleneck.values();
    private final double[] decodeOut = new double[5];

    public DisaggregatedServing() {
        this(HardwareCatalog.bundled());
    }

    public DisaggregatedServing(HardwareCatalog catalog) {
        this.prefillStep = new InferenceStep(catalog);
        this.decodeStep = new InferenceStep(catalog);
    }

    /** What bounds the request rate. */
    public enum Limit { PREFILL, DECODE, KV_TRANSFER }

    /**
     * @param requestsPerSecond          sustained requests per second of the whole deployment
     * @param outputTokensPerSecondPerGpu output tokens per second over all prefill and decode GPUs
     * @param ttftSeconds                prefill (from admission) plus the KV transfer
     * @param tpotSeconds                the decode pool's step time
     * @param kvTransferSeconds          one request's KV-cache transfer
     * @param limit                      the pool or link that bounds the rate
     * @param decodeConcurrency          requests in flight per decode replica
     * @param prefill                    the prefill pool's saturated result (its memory and feasibility)
     */
    public record Result(double requestsPerSecond, double outputTokensPerSecondPerGpu, double ttftSeconds,
                         double tpotSeconds, double kvTransferSeconds, Limit limit, double decodeConcurrency,
                         InferenceResult prefill, Bottleneck decodeBottleneck, boolean kvOverScaleOut)
            implements PlanResult {

        /** The prefill pool's reason, or memory capacity when a decode replica cannot hold one request. */
        @Override
        public Infeasibility infeasibility() {
            return !prefill.feasible() ? prefill.infeasibility()
                    : Double.isNaN(requestsPerSecond) ? Infeasibility.MEMORY_CAPACITY : Infeasibility.NONE;
        }

        @Override
        public String detail() {
            return !prefill.feasible() ? "prefill pool: " + prefill.detail() : Double.isNaN(requestsPerSecond)
                    ? "decode pool: the KV cache of one request (input + output tokens) does not fit beside the "
                    + "weights" : "";
        }

        /** The prefill replica's memory (a decode replica holds the same weights). */
        @Override
        public double totalMemoryBytes() {
            return prefill.totalMemoryBytes();
        }

        /** What limits the pool that binds: its step's largest cause, or the KV links' network. */
        @Override
        public Bottleneck bottleneck() {
            return switch (limit) {
                case PREFILL -> prefill.bottleneck();
                case DECODE -> decodeBottleneck;
                case KV_TRANSFER -> Bottleneck.network(kvOverScaleOut);
            };
        }
    }

    public Result evaluate(ModelSpec model, SystemSpec system, DisaggregatedPlan plan, int inputTokens,
                           int outputTokens) {
        return evaluate(model, system, plan.prefill(), plan.prefillReplicas(), plan.decode(), plan.decodeReplicas(),
                inputTokens, outputTokens, 0);
    }

    /**
     * One deployment unit of {@code prefillReplicas} replicas of {@code prefill} and {@code decodeReplicas} of
     * {@code decode} ({@link DisaggregatedPlan} without building one), each decode replica holding at most {@code cap}
     * requests (0: as many as its KV cache and the runtime allow).
     */
    public Result evaluate(ModelSpec model, SystemSpec system, InferencePlan prefill, int prefillReplicas,
                           InferencePlan decode, int decodeReplicas, int inputTokens, int outputTokens, int cap) {
        InferenceResult p = prefillStep.evaluate(model, system, prefill,
                InferenceWorkload.saturated(inputTokens, 1));
        int prefillGpus = prefillReplicas * prefill.gpusPerReplica();
        int gpus = prefillGpus + decodeReplicas * decode.gpusPerReplica();
        double prefillRate = p.outputTokensPerSecondPerGpu() * prefillGpus; // one token per prompt
        decodeStep.decodePool(model, system, decode, inputTokens, outputTokens, cap, decodeOut);
        double decodeRate = decodeOut[2] / outputTokens * decodeReplicas;
        // The request's KV cache: per-GPU bytes per token x the prefill replica's GPUs x input tokens.
        double requestKvBytes = p.feasible() ? prefillStep.kvBytesPerTokenPerGpu() * prefill.gpusPerReplica()
                * inputTokens : Double.NaN;
        boolean sameDomain = gpus <= system.scaleUpDomain();
        double perGpuBytesPerSecond = sameDomain ? system.scaleUpBytesPerSecond()
                : system.scaleOut().bytesPerSecond() * system.scaleOut().efficiency();
        double transfer = requestKvBytes / (prefill.gpusPerReplica() * perGpuBytesPerSecond);
        double linkRate = prefillGpus * perGpuBytesPerSecond / requestKvBytes;
        double rate = Math.min(prefillRate, Math.min(decodeRate, linkRate));
        Limit limit = rate == prefillRate ? Limit.PREFILL : rate == decodeRate ? Limit.DECODE : Limit.KV_TRANSFER;
        double inFlight = decodeOut[0];
        double step = decodeOut[1];
        if (!p.feasible() || !(decodeOut[0] >= 1)) {
            rate = Double.NaN;
        } else if (rate < decodeRate) {
            // The decode replicas run below their limit: the concurrency whose rate is the system's.
            double lo = 0;
            double hi = decodeOut[0];
            for (int i = 0; i < BISECTIONS; i++) {
                double mid = 0.5 * (lo + hi);
                decodeStep.decodePool(model, system, decode, inputTokens, outputTokens, mid, decodeOut);
                if (decodeOut[2] / outputTokens * decodeReplicas < rate) {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            decodeStep.decodePool(model, system, decode, inputTokens, outputTokens, hi, decodeOut);
            inFlight = decodeOut[0];
            step = decodeOut[1];
        }
        Bottleneck decodeBottleneck = Double.isNaN(decodeOut[4]) ? Bottleneck.MEMORY_CAPACITY
                : BOTTLENECKS[(int) decodeOut[4]];
        return new Result(rate, rate * outputTokens / gpus, p.ttftSeconds() + transfer, step, transfer, limit,
                inFlight, p, decodeBottleneck, !sameDomain);
    }
}
