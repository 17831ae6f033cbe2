package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;

import java.util.ArrayList;
import java.util.List;

/**
 * How one model is served: a replica of {@code tp x ep x pp} GPUs, {@code dp} identical replicas, and the numeric
 * formats. Inside a pipeline stage, {@code ep} attention groups of {@code tp} GPUs each serve their own share of the
 * batch (data-parallel attention), and the MoE layers spread the experts over the {@code ep} groups, each expert split
 * {@code tp} ways (vLLM expert parallelism: EP size = TP x DP; SGLang --enable-dp-attention with --ep; DeepSpeed-MoE
 * inference: attention replicated, experts sharded, all-to-all dispatch and combine). Dense models have ep = 1.
 *
 * @param tp                  tensor-parallel size (Megatron column/row split; 2 all-reduces per layer)
 * @param pp                  pipeline stages (layers split evenly; stages run one after another for one request)
 * @param ep                  expert-parallel size: experts are spread over ep groups of tp GPUs (each GPU holds
 *                            experts / ep of them, each split tp ways) and attention runs ep-way data parallel;
 *                            1 for dense models
 * @param dp                  independent replicas (throughput scales, latency does not)
 * @param weightPrecision     storage format of the weights (bf16, fp16, fp8, fp4)
 * @param activationPrecision format of activations and of the GEMM math; the wider of this and the weight format sets
 *                            the tensor-core rate (weight-only quantization dequantizes to the activation format)
 * @param kvCachePrecision    storage format of the KV cache
 * @param cudaGraphs          decode steps replayed as a CUDA graph (per-kernel host launch cost mostly removed)
 * @param fusedAttention      FlashAttention-style fused prefill attention; false writes and reads the s x s scores
 * @param runtime             the serving runtime's limits, policies and per-step / per-request costs (a stack
 *                            profile's serving section, or {@link ServingBehaviour#ENGINE_DEFAULT}); its CUDA-graph
 *                            and attention settings are overridden by {@code cudaGraphs} and {@code fusedAttention}
 */
public record InferencePlan(int tp, int pp, int ep, int dp, Precision weightPrecision, Precision activationPrecision,
                            Precision kvCachePrecision, boolean cudaGraphs, boolean fusedAttention,
                            ServingBehaviour runtime) {

    /** The documented default format when a case does not state it: 16-bit weights, activations and KV cache. */
    public static final Precision DEFAULT_PRECISION = Precision.BF16;

    public InferencePlan {
        List<InputError> errors = new ArrayList<>();
        positive(errors, "plan.tp", tp);
        positive(errors, "plan.pp", pp);
        positive(errors, "plan.ep", ep);
        positive(errors, "plan.dp", dp);
        storage(errors, "plan.weight_precision", weightPrecision);
        storage(errors, "plan.activation_precision", activationPrecision);
        storage(errors, "plan.kv_cache_precision", kvCachePrecision);
        if (runtime == null) {
            errors.add(InputError.of("inference plan", "plan.runtime", "a serving runtime", null));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    /** A plan on the engine's default runtime ({@link ServingBehaviour#ENGINE_DEFAULT}). */
    public InferencePlan(int tp, int pp, int ep, int dp, Precision weightPrecision, Precision activationPrecision,
                         Precision kvCachePrecision, boolean cudaGraphs, boolean fusedAttention) {
        this(tp, pp, ep, dp, weightPrecision, activationPrecision, kvCachePrecision, cudaGraphs, fusedAttention,
                ServingBehaviour.ENGINE_DEFAULT);
    }

    /** Tensor parallelism only, default 16-bit formats, no CUDA graphs, fused attention. */
    public static InferencePlan tensorParallel(int tp) {
        return new InferencePlan(tp, 1, 1, 1, DEFAULT_PRECISION, DEFAULT_PRECISION, DEFAULT_PRECISION, false, true);
    }

    /** GPUs of one replica: ep attention groups of tp GPUs per pipeline stage. */
    public int gpusPerReplica() {
        return tp * ep * pp;
    }

    /** GPUs of one pipeline stage: the tp x ep expert-parallel domain. */
    public int gpusPerStage() {
        return tp * ep;
    }

    /** GPUs the plan occupies. */
    public int gpus() {
        return tp * ep * pp * dp;
    }

    /** The format the tensor cores compute in: the wider of weights and activations. */
    public Precision computePrecision() {
        return weightPrecision.ordinal() <= activationPrecision.ordinal() ? weightPrecision : activationPrecision;
    }

    public InferencePlan withCudaGraphs(boolean on) {
        return new InferencePlan(tp, pp, ep, dp, weightPrecision, activationPrecision, kvCachePrecision, on,
                fusedAttention, runtime);
    }

    public InferencePlan withPrecisions(Precision weights, Precision activations, Precision kvCache) {
        return new InferencePlan(tp, pp, ep, dp, weights, activations, kvCache, cudaGraphs, fusedAttention, runtime);
    }

    public InferencePlan withParallelism(int tp, int pp, int ep, int dp) {
        return new InferencePlan(tp, pp, ep, dp, weightPrecision, activationPrecision, kvCachePrecision, cudaGraphs,
                fusedAttention, runtime);
    }

    /**
     * The plan on a runtime: its limits and costs, and its CUDA-graph and attention settings (a stack profile's
     * serving section).
     */
    public InferencePlan withRuntime(ServingBehaviour r) {
        return new InferencePlan(tp, pp, ep, dp, weightPrecision, activationPrecision, kvCachePrecision,
                r.cudaGraphs(), r.attention().fused(), r);
    }

    private static void positive(List<InputError> errors, String field, int v) {
        if (v < 1) {
            errors.add(InputError.of("inference plan", field, "an integer >= 1", Integer.toString(v)));
        }
    }

    private static void storage(List<InputError> errors, String field, Precision p) {
        if (p == null) {
            errors.add(InputError.of("inference plan", field, "one of [bf16, fp16, fp8, fp4, fp32]", null));
        } else if (p == Precision.TF32) {
            errors.add(InputError.of("inference plan", field, "a storage format, one of [bf16, fp16, fp8, fp4, fp32]",
                    "tf32 (a math mode, not a storage format)"));
        }
    }

    @Override
    public String toString() {
        return "tp" + tp + (pp > 1 ? "-pp" + pp : "") + (ep > 1 ? "-ep" + ep : "") + (dp > 1 ? "-dp" + dp : "") + "-w"
                + weightPrecision.id() + "-a" + activationPrecision.id() + "-kv" + kvCachePrecision.id()
                + (cudaGraphs ? "-graphs" : "") + (fusedAttention ? "" : "-unfused");
    }
}
