package io.ridgeline.engine.software;

import java.util.List;

/**
 * What a training framework does that changes a step's time and memory (docs/MODEL.md sec. 7, "Software stacks").
 * Read from the {@code training} section of a {@code catalog/stacks.yaml} entry, every value with its source.
 *
 * @param attention          the attention-core kernel
 * @param dropout            GPT-style (two-matrix MLP) models train with hidden and attention dropout (1-byte masks
 *                           kept for backward, dropout kernels); gated-MLP models never do
 * @param gradReduceOverlap  data-parallel gradient reduction bucketed and overlapped with backward (Megatron-core
 *                           overlap_grad_reduce, PyTorch DDP/FSDP, DeepSpeed overlap_comm)
 * @param paramGatherOverlap the sharded optimizer's parameter all-gather overlapped with the next forward
 *                           (overlap_param_gather; FSDP's forward prefetch)
 * @param weightBytes        bytes per parameter of the weights a rank keeps (2: 16-bit copy beside the fp32 master in
 *                           the optimizer; 4: FSDP's fp32 flat parameters, which are the master)
 * @param gradientBytes      bytes per parameter of the gradient buffer (4 = fp32 main_grad, 2 = parameter dtype)
 * @param optimizerBytes     bytes per parameter of optimizer state (12: fp32 master, Adam m and v; 8: m and v only,
 *                           when the weights themselves are fp32)
 * @param reduceBytes        bytes per gradient element on the data-parallel wire (reduce dtype)
 * @param defaultZero        ZeRO stage the stack uses when a case leaves it unstated (1 = distributed optimizer,
 *                           3 = FSDP full shard)
 * @param prefetchUnits      ZeRO-3/FSDP units whose parameters are gathered ahead of the one computing (0: gather
 *                           on demand, nothing hidden)
 * @param backwardPrefetch   when ZeRO-3/FSDP issues the next unit's gather in backward
 * @param maxLiveParams      ZeRO-3 cap on gathered parameters resident at once (0: no cap beyond the units)
 * @param regatherOnRecompute ZeRO-3 gathers a layer's parameters again for its recomputed forward (besides its
 *                           backward's gather)
 * @param flatDpCollectives  data-parallel collectives move each rank's whole share through its own NIC (a flat ring
 *                           over the data-parallel ranks), instead of aggregating a node's NICs hierarchically
 * @param tpCommOverlap      tensor-parallel collectives split and overlapped with the GEMMs that produce or consume
 *                           them (Transformer Engine userbuffers)
 * @param lowPrecisionRecipe the FP8/FP4 scaling recipe used when a plan runs GEMMs in FP8 or FP4
 * @param cudaGraphs         the training step is captured and replayed as CUDA graphs (no per-kernel host cost)
 * @param hostSecondsPerKernel host time to dispatch one kernel in eager mode (Python, autograd, dispatcher, launch)
 * @param recompute          recomputation when a case leaves it unstated
 * @param selectiveRecompute the stack can recompute only the attention core (Korthikanti et al. 2022); without it,
 *                           the least recomputation that fits recomputes whole layers
 * @param reserveBytes       device memory outside the framework's tensors: CUDA context, NCCL and cuBLAS workspaces
 * @param fragmentationFraction share of activation memory the caching allocator cannot reuse (fragmentation)
 * @param expertTensorParallel MoE experts split over the TP ranks like dense layers (false: each expert whole on a
 *                           rank, expert_tensor_parallel_size = 1, so EP may span TP x DP ranks)
 * @param moeDispatcher      how MoE tokens reach their experts
 * @param fusedCrossEntropy  the loss is computed by a fused kernel on the 16-bit logits (no fp32 copy of the logits)
 * @param sequenceParallel   sequence parallelism is on whenever TP > 1 when a case leaves it unstated
 * @param moeFp8FastPath     MoE models in FP8 on GPUs with block-scaled tensor cores take the stack's fused MoE path:
 *                           each grouped expert MLP as one fused kernel (GLU and quantization in its epilogue), FP8
 *                           dot-product attention and the step captured as CUDA graphs (Megatron-Bridge 26.06 MXFP8
 *                           MoE recipes; their expert-parallel overlap is not credited: docs/MODEL.md sec. 7)
 * @param yarnRopeFusion     YaRN-scaled rotary embeddings (GPT-OSS) run as one fused kernel per tensor; without it the
 *                           rotary is a chain of eager elementwise kernels on Q and K, forward and backward
 * @param moeExpertBias      how the routed experts' biases are added (models with expert biases only)
 * @param gluClampFusion     a clamped GLU's clamps (GPT-OSS) run inside the fused activation kernel; without it they
 *                           run as eager clamp and concatenation kernels over the experts' up-projection output,
 *                           forward and backward (models with a clamped GLU only)
 * @param fp8WindowBackwardSkips FP8 dot-product attention's backward skips the key tiles outside a sliding window;
 *                           without it a sliding-window layer's backward costs a full causal layer's (only where the
 *                           stack runs attention in FP8: the fused FP8 MoE path)
 * @param fusedMoeDbiasFactor time of the fused MoE path's grouped dGLU GEMM when it also reduces the experts' bias
 *                           gradient, over its time without that regression (1: none; cudnn-frontend issue 256)
 * @param opLevelSelectiveRecompute selective recomputation is an op-level save policy (torchtitan 'op' SAC): backward
 *                           re-runs every op whose output the policy does not save, i.e. the elementwise ops, every
 *                           second 16-bit matmul and every FP8/FP4 linear; the attention core is saved
 * @param cpExchange         how context parallelism exchanges K/V and dK/dV (ring, PyTorch all-gather eager or compiled)
 * @param expandedKvHeads    K/V reach the attention kernel expanded to the query heads (the model code repeats them for
 *                           grouped-query attention before SDPA), so context parallelism moves and accumulates K/V at the
 *                           query width
 */
public record TrainingBehaviour(AttentionKernel attention, boolean dropout, boolean gradReduceOverlap,
                                boolean paramGatherOverlap, double weightBytes, double gradientBytes,
                                double optimizerBytes, double reduceBytes, int defaultZero, int prefetchUnits,
                                BackwardPrefetch backwardPrefetch, double maxLiveParams,
                                boolean regatherOnRecompute, boolean flatDpCollectives, boolean tpCommOverlap, LowPrecisionRecipe lowPrecisionRecipe, boolean cudaGraphs,
                                double hostSecondsPerKernel, RecomputePolicy recompute, boolean selectiveRecompute,
                                double reserveBytes,
                                double fragmentationFraction, boolean expertTensorParallel,
                                MoeDispatcher moeDispatcher, boolean fusedCrossEntropy, boolean sequenceParallel,
                                boolean moeFp8FastPath, boolean yarnRopeFusion, ExpertBias moeExpertBias,
                                boolean fp8WindowBackwardSkips, double fusedMoeDbiasFactor,
                                boolean opLevelSelectiveRecompute, ContextParallelExchange cpExchange,
                                boolean expandedKvHeads, boolean gluClampFusion) {

    /** The keys of a {@code training} section, in catalogue order. */
    public static final List<String> KEYS = List.of("attention", "dropout", "grad_reduce_overlap",
            "param_gather_overlap", "weight_bytes", "gradient_bytes", "optimizer_bytes", "reduce_bytes",
            "default_zero", "prefetch_units", "backward_prefetch", "max_live_params",
            "regather_on_recompute", "flat_dp_collectives", "tp_comm_overlap", "low_precision_recipe", "cuda_graphs",
            "host_us_per_kernel", "recompute", "selective_recompute", "reserve_gib", "fragmentation", "expert_tensor_parallel",
            "moe_dispatcher", "fused_cross_entropy", "sequence_parallel", "moe_fp8_fast_path", "yarn_rope_fusion",
            "moe_expert_bias", "fp8_window_backward_skips", "fused_moe_dbias_factor",
            "op_level_selective_recompute", "cp_exchange", "expanded_kv_heads", "glu_clamp_fusion");

    private static final double GIB = 1024.0 * 1024 * 1024;

    public TrainingBehaviour {
        if (attention == null || lowPrecisionRecipe == null || recompute == null || moeDispatcher == null
                || backwardPrefetch == null || moeExpertBias == null || cpExchange == null) {
            throw new IllegalArgumentException("training behaviour needs every choice set");
        }
        if (defaultZero < 0 || defaultZero > 3 || prefetchUnits < 0 || !(weightBytes > 0) || !(gradientBytes > 0)
                || optimizerBytes < 0 || !(reduceBytes > 0) || hostSecondsPerKernel < 0 || reserveBytes < 0
                || maxLiveParams < 0 || !(fusedMoeDbiasFactor >= 1)
                || fragmentationFraction < 0 || fragmentationFraction >= 1) {
            throw new IllegalArgumentException("invalid training behaviour");
        }
    }

    static TrainingBehaviour read(StackFields f) {
        return new TrainingBehaviour(f.choice("attention", AttentionKernel.class), f.bool("dropout"),
                f.bool("grad_reduce_overlap"), f.bool("param_gather_overlap"), f.number("weight_bytes", 1, 4),
                f.number("gradient_bytes", 2, 4), f.number("optimizer_bytes", 0, 16), f.number("reduce_bytes", 2, 4),
                f.integer("default_zero", 0, 3), f.integer("prefetch_units", 0, 4),
                f.choice("backward_prefetch", BackwardPrefetch.class), f.number("max_live_params", 0, 1e12),
                f.bool("regather_on_recompute"), f.bool("flat_dp_collectives"), f.bool("tp_comm_overlap"),
                f.choice("low_precision_recipe", LowPrecisionRecipe.class), f.bool("cuda_graphs"),
                f.number("host_us_per_kernel", 0, 1000) * 1e-6, f.choice("recompute", RecomputePolicy.class),
                f.bool("selective_recompute"),
                f.number("reserve_gib", 0, 64) * GIB, f.number("fragmentation", 0, 0.5),
                f.bool("expert_tensor_parallel"), f.choice("moe_dispatcher", MoeDispatcher.class),
                f.bool("fused_cross_entropy"), f.bool("sequence_parallel"), f.bool("moe_fp8_fast_path"),
                f.bool("yarn_rope_fusion"), f.choice("moe_expert_bias", ExpertBias.class),
                f.bool("fp8_window_backward_skips"), f.number("fused_moe_dbias_factor", 1, 100),
                f.bool("op_level_selective_recompute"), f.choice("cp_exchange", ContextParallelExchange.class),
                f.bool("expanded_kv_heads"), f.bool("glu_clamp_fusion"));
    }

    /** True when the attention kernel keeps no s x s tensor. */
    public boolean fusedAttention() {
        return attention.fused();
    }

    /** A copy with the attention kernel and gradient-reduction overlap set (the sweep layer's two switches). */
    public TrainingBehaviour withSwitches(AttentionKernel kernel, boolean overlap) {
        return new TrainingBehaviour(kernel, dropout, overlap, paramGatherOverlap && overlap, weightBytes,
                gradientBytes, optimizerBytes, reduceBytes, defaultZero, prefetchUnits, backwardPrefetch, maxLiveParams,
                regatherOnRecompute, flatDpCollectives, tpCommOverlap,
                lowPrecisionRecipe, cudaGraphs, hostSecondsPerKernel, recompute, selectiveRecompute, reserveBytes,
                fragmentationFraction,
                expertTensorParallel, moeDispatcher, fusedCrossEntropy, sequenceParallel, moeFp8FastPath,
                yarnRopeFusion, moeExpertBias, fp8WindowBackwardSkips, fusedMoeDbiasFactor,
                opLevelSelectiveRecompute, cpExchange, expandedKvHeads, gluClampFusion);
    }
}
