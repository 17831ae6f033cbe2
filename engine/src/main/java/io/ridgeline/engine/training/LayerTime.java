package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.ops.MemoryBoundOp;
import io.ridgeline.engine.workload.MlaSpec;
import io.ridgeline.engine.workload.MlpType;
import io.ridgeline.engine.workload.ModelSpec;
import io.ridgeline.engine.workload.MoeSpec;

/**
 * Forward and backward time of one transformer layer for one micro-batch on one device (Megatron-LM execution: column
 * parallel QKV and MLP-up, row-parallel projection and MLP-down, Narayanan et al. 2021 sec. 2.3; sequence
 * parallelism and recomputation per Korthikanti et al. 2022). The attention core is {@link AttentionTime}, the MoE
 * feed-forward {@link ExpertTime}. TP collectives run between the GEMMs, or overlapped with them when the stack
 * splits them into the GEMMs (Transformer Engine userbuffers): then only what outlasts the pass's linear GEMMs shows.
 */
final class LayerTime {
    private static final double ACT_BYTES = 2; // 16-bit activations
    /** Forward kernels the unfused attention core adds over a fused one (QK^T, softmax, dropout, score x V vs 1). */
    private static final double UNFUSED_EXTRA_KERNELS = 3;
    /** SMs each SM-driven userbuffers overlap occupies (Transformer Engine initialize_ub default num_sm). */
    private static final double OVERLAP_SMS = 16;
    /** FP8/FP4: one cast(-transpose) kernel per linear input per pass (Transformer Engine). */
    static final double CAST_KERNELS = 4;
    /**
     * Eager YaRN rotary on Q and K (Megatron-core rope_utils._apply_rotary_pos_emb_bshd): per tensor t * cos,
     * rotate_half (negate half, concatenate), * sin, the sum and a final concatenation move 12 elements' worth of 16-bit
     * traffic per element in forward (24 B) and about as much in autograd's backward, where the fused kernel reads and
     * writes each element once per pass (4 B, counted in elementwiseForward and doubled for backward).
     */
    private static final double EAGER_ROPE_EXTRA_FORWARD_BYTES = 24 - 4;
    private static final double EAGER_ROPE_EXTRA_BACKWARD_BYTES = 24 - 8;
    /** Eager rotary kernels: per tensor 6 on the [s, d] frequencies (cos, sin, YaRN scale, casts) and 7 elementwise. */
    private static final double EAGER_ROPE_FORWARD_KERNELS = 2 * (6 + 7);
    /** Eager rotary backward kernels: per tensor the gradients of the 7 elementwise ops. */
    private static final double EAGER_ROPE_BACKWARD_KERNELS = 2 * 7;

    private final GemmModel gemm;
    private final MemoryBoundOp memory;
    private final CollectiveModel collectives;
    private final AttentionTime attention;
    private final ExpertTime experts;
    private final ContextParallelTime context;
    private final LowPrecisionCasts casts;
    private final EagerGluClamp clamp;

    LayerTime(GemmModel gemm, MemoryBoundOp memory, CollectiveModel collectives) {
        this.gemm = gemm;
        this.memory = memory;
        this.collectives = collectives;
        this.attention = new AttentionTime(gemm, memory);
        this.experts = new ExpertTime(gemm, memory, collectives);
        this.context = new ContextParallelTime(collectives);
        this.casts = new LowPrecisionCasts(memory);
        this.clamp = new EagerGluClamp(memory);
    }

    /** Forward of one layer. */
    Cost forward(LayerShape s) {
        Precision p = s.plan().precision();
        double linear = linearForward(s, p);
        double core = attention.gemmForward(s);
        double gemms = linear + core;
        double mem = elementwiseForward(s) + attention.memoryForward(s) + casts.forward(s)
                + eagerRope(s, EAGER_ROPE_EXTRA_FORWARD_BYTES, EAGER_ROPE_FORWARD_KERNELS)
                + (s.model().moe() == null ? 0 : experts.memory(s) + experts.biasForward(s) + clamp.forward(s));
        double ep = s.model().moe() == null ? 0 : experts.exchange(s);
        double kernels = forwardKernels(s) + (eagerRope(s) ? EAGER_ROPE_FORWARD_KERNELS : 0)
                + (s.model().moe() == null ? 0 : ExpertTime.biasKernels(s, true) + EagerGluClamp.kernels(s, true));
        return new Cost(gemms, mem, exposedTp(s, tpCommunication(s), linear), context.forward(s, core, gemms), ep, 0,
                s.tp().crossesDomains() || (ep > 0 && s.ep().crossesDomains()), kernels, stallKernels(s));
    }

    /**
     * Backward of one layer, plus what recomputation re-runs: the whole forward for the fraction {@code fullFraction}
     * of layers that recompute fully, the s x s part for selective recomputation of unfused attention.
     */
    Cost backward(LayerShape s, double fullFraction, boolean selective) {
        Precision p = s.plan().precision();
        double linear = linearBackward(s, p);
        double core = attention.gemmBackward(s);
        double gemms = linear + core;
        double mem = 2 * elementwiseForward(s) + attention.memoryBackward(s) + casts.backward(s)
                + eagerRope(s, EAGER_ROPE_EXTRA_BACKWARD_BYTES, EAGER_ROPE_BACKWARD_KERNELS)
                + (s.model().moe() == null ? 0 : experts.memory(s) + experts.biasBackward(s) + clamp.backward(s));
        double ep = s.model().moe() == null ? 0 : experts.exchange(s);
        double tp = exposedTp(s, tpCommunication(s) + sequenceParallelRegather(s), linear);
        double kernels = 2 * forwardKernels(s) + (eagerRope(s) ? EAGER_ROPE_BACKWARD_KERNELS : 0)
                + (s.model().moe() == null ? 0 : ExpertTime.biasKernels(s, false) + EagerGluClamp.kernels(s, false));
        // No token-count synchronisation in backward (sizes saved in forward); a recomputed forward has its own.
        Cost own = new Cost(gemms, mem, tp, context.backward(s, core, gemms), ep, 0,
                s.tp().crossesDomains() || (ep > 0 && s.ep().crossesDomains()), kernels, 0);
        if (fullFraction > 0) {
            own = own.plus(forward(s).times(fullFraction));
        }
        if (selective && s.plan().software().opLevelSelectiveRecompute()) {
            own = own.plus(opPolicyRecompute(s, p));
        } else if (selective && !s.plan().flashAttention()) {
            // Re-run only the s x s part: QK^T, softmax, dropout, score x V (Korthikanti et al. 2022 sec. 5).
            own = own.plus(new Cost(attention.gemmForward(s), attention.memoryForward(s), 0, 0, 0, 0, false, 5));
        }
        return own;
    }

    /**
     * What an op-level save policy re-runs in backward (torchtitan 'op' SAC, parallelize_llama.py _save_list): the
     * outputs of aten.mm are saved except every second one, so half the 16-bit linear GEMMs (taken as half their time)
     * run again; FP8/FP4 linears multiply with aten._scaled_mm, which the list does not hold, so all of them run again
     * with their casts; every elementwise op (norms, activation, rotary) runs again; the attention core is saved.
     */
    private Cost opPolicyRecompute(LayerShape s, Precision p) {
        boolean lowPrecision = ModelStateMemory.lowPrecision(s.plan());
        double linearShare = lowPrecision ? 1 : 0.5;
        return new Cost(linearShare * linearForward(s, p), elementwiseForward(s) + casts.forward(s), 0, 0, 0, 0,
                false, forwardKernels(s));
    }

    private static double forwardKernels(LayerShape s) {
        double k = HostOverhead.FORWARD_KERNELS_PER_LAYER - (s.plan().flashAttention() ? UNFUSED_EXTRA_KERNELS : 0)
                + (ModelStateMemory.lowPrecision(s.plan()) ? CAST_KERNELS : 0);
        return s.model().moe() == null ? k : k + ExpertTime.forwardKernels(s);
    }

    private static double stallKernels(LayerShape s) {
        return s.model().moe() == null ? 0 : ExpertTime.syncKernels();
    }

    // --- GEMMs of the linear layers -------------------------------------------------------------------------------

    private double linearForward(LayerShape s, Precision p) {
        double margin = smMargin(s);
        double time;
        if (s.model().mla() != null) {
            MlaSpec a = s.model().mla();
            double out = gemm.seconds(s.tokens(), s.hidden(), s.localHeads() * a.vHeadDim(), p);
            time = latentAttentionForward(s, p) + margin * out;
        } else {
            double proj = gemm.seconds(s.tokens(), s.hidden(), s.qWidth(), p);   // projection, row-parallel
            time = gemm.seconds(s.tokens(), s.qkvWidth(), s.hidden(), p)          // QKV, column-parallel
                    + (1 + margin) * proj;
        }
        if (s.model().moe() != null) {
            return time + experts.gemmForward(s, p);
        }
        ModelSpec m = s.model();
        double up = m.mlp().matrices() - 1; // gate and up fused into one GEMM for SwiGLU
        double ffn = (double) m.ffn() / s.plan().tp();
        return time + gemm.seconds(s.tokens(), up * ffn, s.hidden(), p)
                + (1 + margin) * gemm.seconds(s.tokens(), s.hidden(), ffn, p);
    }

    /**
     * GEMM time added per unit of a GEMM that hosts an SM-driven TP overlap: Transformer Engine's userbuffers run the
     * reduce-scatter of the row-parallel forward GEMMs ("pipeline") and the backward all-gather/reduce-scatter of the
     * column-parallel GEMMs ("bulk") on 16 SMs each and shrink the GEMM by that margin (transformer_engine/pytorch/
     * module/base.py initialize_ub defaults: num_sm 16, set_sm_margin; the all-gathers before QKV and MLP-up use copy
     * engines, "ring_exchange", and cost no SMs).
     */
    private double smMargin(LayerShape s) {
        if (!tpOverlapped(s) || s.tp().size() == 1) {
            return 0;
        }
        double sms = gemm.chip().smCount();
        return OVERLAP_SMS / (sms - OVERLAP_SMS);
    }

    /**
     * Multi-head latent attention's projections (DeepSeek-V2/V3; Megatron-core MLASelfAttention): query and key/value
     * down-projections to their latents (not split over TP), up-projections per head (column-parallel), and the
     * output projection (row-parallel).
     */
    private double latentAttentionForward(LayerShape s, Precision p) {
        MlaSpec a = s.model().mla();
        double t = s.tokens();
        double heads = s.localHeads();
        return gemm.seconds(t, a.qLoraRank(), s.hidden(), p)
                + gemm.seconds(t, heads * a.qkHeadDim(), a.qLoraRank(), p)
                + gemm.seconds(t, a.kvLoraRank() + a.qkRopeHeadDim(), s.hidden(), p)
                + gemm.seconds(t, heads * (a.qkNopeHeadDim() + a.vHeadDim()), a.kvLoraRank(), p)
                + gemm.seconds(t, s.hidden(), heads * a.vHeadDim(), p);
    }

    private double latentAttentionBackward(LayerShape s, Precision p) {
        MlaSpec a = s.model().mla();
        double t = s.tokens();
        double heads = s.localHeads();
        return backwardPair(t, a.qLoraRank(), s.hidden(), p)
                + backwardPair(t, heads * a.qkHeadDim(), a.qLoraRank(), p)
                + backwardPair(t, a.kvLoraRank() + a.qkRopeHeadDim(), s.hidden(), p)
                + backwardPair(t, heads * (a.qkNopeHeadDim() + a.vHeadDim()), a.kvLoraRank(), p)
                + backwardPair(t, s.hidden(), heads * a.vHeadDim(), p);
    }

    /**
     * Backward of each linear: data gradient (m,k,n) and weight gradient (k,n,m) GEMMs; the column-parallel ones host
     * the bulk TP overlaps (smMargin).
     */
    private double linearBackward(LayerShape s, Precision p) {
        double margin = smMargin(s);
        double time;
        if (s.model().mla() != null) {
            MlaSpec a = s.model().mla();
            double heads = s.localHeads();
            double columnParallel = backwardPair(s.tokens(), heads * a.qkHeadDim(), a.qLoraRank(), p)
                    + backwardPair(s.tokens(), heads * (a.qkNopeHeadDim() + a.vHeadDim()), a.kvLoraRank(), p);
            time = latentAttentionBackward(s, p) + margin * columnParallel;
        } else {
            time = (1 + margin) * backwardPair(s.tokens(), s.qkvWidth(), s.hidden(), p)
                    + backwardPair(s.tokens(), s.hidden(), s.qWidth(), p);
        }
        if (s.model().moe() != null) {
            return time + experts.gemmBackward(s, p);
        }
        ModelSpec m = s.model();
        double up = m.mlp().matrices() - 1;
        double ffn = (double) m.ffn() / s.plan().tp();
        return time + (1 + margin) * backwardPair(s.tokens(), up * ffn, s.hidden(), p)
                + backwardPair(s.tokens(), s.hidden(), ffn, p);
    }

    private double backwardPair(double m, double n, double k, Precision p) {
        return gemm.seconds(m, k, n, p) + gemm.seconds(k, n, m, p);
    }

    // --- memory-bound elementwise ops -----------------------------------------------------------------------------

    /**
     * Forward elementwise traffic in 16 bits: two norms (read h, write h), two residual paths (GPT: fused
     * bias-dropout-add reads x and the residual, writes the sum and a 1-byte mask; without dropout a residual add),
     * the MLP activation (GeLU: read and write ffn; SwiGLU: read 2 ffn, write ffn) over every routed copy for MoE and,
     * for Llama-style models, rotary embedding of Q and K.
     */
    private double elementwiseForward(LayerShape s) {
        ModelSpec m = s.model();
        double h = s.hidden();
        double norms = 2 * (2 * h * ACT_BYTES) * s.normTokens();
        double residuals = 2 * (s.dropout() ? 3 * h * ACT_BYTES + h : 3 * h * ACT_BYTES) * s.normTokens();
        double ffnTokens = mlpWidthTokens(s);
        // The fused MoE path computes the routed experts' GLU in the grouped GEMM's epilogue.
        // Squared ReLU runs as relu then pow, each reading and writing the intermediate (Megatron-core MLP with
        // bias_activation_fusion off, as the Nemotron configurations set it).
        double passes = m.mlp().matrices() == 3 ? 3 : m.squaredRelu() ? 4 : 2;
        double activation = passes * (ffnTokens - fusedWidthTokens(s)) * ACT_BYTES;
        boolean rotary = m.mlp() == MlpType.SWIGLU;
        double rope = rotary ? 2 * (s.qkvWidth() - (double) m.kvWidth() / s.plan().tp()) * ACT_BYTES * s.tokens() : 0;
        double flops = (2 * 5 * h + 2 * h) * s.normTokens() + 8 * ffnTokens;
        return memory.seconds(norms + residuals + activation + rope, flops, s.dropout() ? 5 : 6);
    }

    /** MLP intermediate elements per micro-batch on the device (tokens x per-device width, over routed copies). */
    static double mlpWidthTokens(LayerShape s) {
        MoeSpec moe = s.model().moe();
        if (moe == null) {
            return (double) s.model().ffn() / s.plan().tp() * s.tokens();
        }
        double shared = (double) moe.expertFfn() * moe.sharedExperts() / s.plan().tp() * s.tokens();
        return s.expertFfn() * s.expertTokens() * moe.topK() * moe.capacityFactor() + shared;
    }

    /** Routed-expert intermediate elements whose activation and quantization the fused MoE path fuses away. */
    static double fusedWidthTokens(LayerShape s) {
        if (!s.moeFastPath()) {
            return 0;
        }
        MoeSpec moe = s.model().moe();
        return s.expertFfn() * s.expertTokens() * moe.topK() * moe.capacityFactor();
    }

    /** The model's YaRN rotary runs as eager kernels on this stack (TrainingBehaviour.yarnRopeFusion). */
    private static boolean eagerRope(LayerShape s) {
        return s.model().yarnRope() && !s.plan().software().yarnRopeFusion();
    }

    /** Extra traffic of an eager rotary over the fused one: {@code bytesPerElement} over every Q and K element. */
    private double eagerRope(LayerShape s, double bytesPerElement, double kernels) {
        if (!eagerRope(s)) {
            return 0;
        }
        double elements = s.tokens() * (s.qkvWidth() - (double) s.model().kvWidth() / s.plan().tp());
        return memory.seconds(elements * bytesPerElement, 0, (int) kernels);
    }

    // --- communication --------------------------------------------------------------------------------------------

    /**
     * TP collectives per pass (after the projection and after MLP-down, or their conjugates in backward): an
     * all-reduce of [tokens, h] each, or under SP an all-gather plus a reduce-scatter of the same bytes. An MoE layer
     * whose experts stay whole on each rank has only the attention block's pair.
     */
    private double tpCommunication(LayerShape s) {
        if (s.tp().size() == 1) {
            return 0;
        }
        double bytes = s.activationBytes();
        double blocks = s.expertsOutsideTp() ? 1 : 2;
        if (s.plan().sp()) {
            return collectives.repeat(blocks, collectives.allGather(bytes, s.tp()))
                    + collectives.repeat(blocks, collectives.reduceScatter(bytes, s.tp()));
        }
        return collectives.repeat(blocks, collectives.allReduce(bytes, s.tp()));
    }

    /**
     * Under SP the gathered input of QKV and MLP-up is not kept: backward all-gathers it again for the weight
     * gradients (Korthikanti et al. 2022 sec. 4.2.2).
     */
    private double sequenceParallelRegather(LayerShape s) {
        if (!s.plan().sp() || s.tp().size() == 1) {
            return 0;
        }
        return collectives.repeat(s.expertsOutsideTp() ? 1 : 2, collectives.allGather(s.activationBytes(), s.tp()));
    }

    /** TP communication left on the critical path: all of it, or what outlasts the linear GEMMs it is split into. */
    private static double exposedTp(LayerShape s, double comm, double linearGemms) {
        return tpOverlapped(s) ? Math.max(0, comm - linearGemms) : comm;
    }

    /**
     * Whether the stack's userbuffers overlap runs for this TP group: only inside one scale-up domain (Transformer
     * Engine's comm+GEMM overlap exchanges through CUDA IPC buffers mapped between the GPUs of one NVLink domain); a TP
     * group that spans domains communicates exposed, as without the overlap.
     */
    private static boolean tpOverlapped(LayerShape s) {
        return s.plan().software().tpCommOverlap() && s.tp().domains() == 1;
    }
}
