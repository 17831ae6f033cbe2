package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.ops.MemoryBoundOp;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.workload.MoeSpec;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Forward and backward time of one transformer layer for one micro-batch on one device (Megatron-LM execution: column
 * parallel QKV and MLP-up, row-parallel projection and MLP-down, Narayanan et al. 2021 sec. 2.3; sequence
 * parallelism and recomputation per Korthikanti et al. 2022). Communication on the TP stream is not overlapped with
 * compute (Megatron 2021-23 default).
 */
final class LayerTime {
    private static final double ACT_BYTES = 2; // 16-bit activations
    private final GemmModel gemm;
    private final MemoryBoundOp memory;
    private final CollectiveModel collectives;
    private final Chip chip;

    LayerTime(GemmModel gemm, MemoryBoundOp memory, CollectiveModel collectives) {
        this.gemm = gemm;
        this.memory = memory;
        this.collectives = collectives;
        this.chip = gemm.chip();
    }

    /** Forward of one layer. */
    Cost forward(LayerShape s) {
        Precision p = s.plan().precision();
        double gemms = linearForward(s, p) + attentionCoreGemmForward(s, p);
        double mem = elementwiseForward(s) + attentionCoreMemoryForward(s) + lowPrecisionCasts(s);
        return new Cost(gemms, mem, tpCommunication(s), contextExchange(s, gemms), expertExchange(s), 0,
                s.tp().crossesDomains(), HostOverhead.FORWARD_KERNELS_PER_LAYER);
    }

    /** Backward of one layer, including what its recomputation re-runs. */
    Cost backward(LayerShape s) {
        Precision p = s.plan().precision();
        double gemms = linearBackward(s, p) + attentionCoreGemmBackward(s, p);
        double mem = 2 * elementwiseForward(s) + attentionCoreMemoryBackward(s) + lowPrecisionCasts(s);
        Cost own = new Cost(gemms, mem, tpCommunication(s) + sequenceParallelRegather(s), 2 * contextExchange(s, gemms / 2), expertExchange(s), 0,
                s.tp().crossesDomains(), HostOverhead.BACKWARD_KERNELS_PER_LAYER);
        Recompute r = s.plan().recompute();
        if (r == Recompute.FULL) {
            return own.plus(forward(s));
        }
        if (r == Recompute.SELECTIVE && !s.plan().flashAttention()) {
            // Re-run only the s x s part: QK^T, softmax, dropout, score x V (Korthikanti et al. 2022 sec. 5).
            return own.plus(new Cost(attentionCoreGemmForward(s, p), attentionCoreMemoryForward(s), 0, 0, 0, 0,
                    false, 5));
        }
        return own;
    }

    // --- GEMMs of the linear layers -------------------------------------------------------------------------------

    private double linearForward(LayerShape s, Precision p) {
        ModelSpec m = s.model();
        int t = s.plan().tp();
        double time = gemm.seconds(s.tokens(), s.qkvWidth(), s.hidden(), p)   // QKV, column-parallel
                + gemm.seconds(s.tokens(), s.hidden(), s.hidden() / t, p);   // projection, row-parallel
        return time + mlpForward(s, m, t, p);
    }

    private double mlpForward(LayerShape s, ModelSpec m, int t, Precision p) {
        double upFactor = m.mlp().matrices() - 1; // gate and up fused into one GEMM for SwiGLU
        MoeSpec moe = m.moe();
        if (moe == null) {
            double ffn = (double) m.ffn() / t;
            return gemm.seconds(s.tokens(), upFactor * ffn, s.hidden(), p)
                    + gemm.seconds(s.tokens(), s.hidden(), ffn, p);
        }
        double ffn = (double) moe.expertFfn() / t;
        int ep = s.plan().ep();
        double localExperts = (double) moe.experts() / ep;
        // Each device receives, on average, its tokens x top-k (x capacity) spread over its local experts.
        double perExpert = Math.ceil(s.tokens() * moe.topK() * moe.capacityFactor() / localExperts);
        double time = gemm.seconds(s.tokens(), moe.experts(), s.hidden(), p) // router
                + gemm.seconds(localExperts, perExpert, upFactor * ffn, s.hidden(), p)
                + gemm.seconds(localExperts, perExpert, s.hidden(), ffn, p);
        if (moe.sharedExperts() > 0) {
            double shared = ffn * moe.sharedExperts();
            time += gemm.seconds(s.tokens(), upFactor * shared, s.hidden(), p)
                    + gemm.seconds(s.tokens(), s.hidden(), shared, p);
        }
        return time;
    }

    /** Backward of each linear: data gradient (m,k,n) and weight gradient (k,n,m) GEMMs. */
    private double linearBackward(LayerShape s, Precision p) {
        ModelSpec m = s.model();
        int t = s.plan().tp();
        double time = backwardPair(s.tokens(), s.qkvWidth(), s.hidden(), p)
                + backwardPair(s.tokens(), s.hidden(), s.hidden() / t, p);
        double upFactor = m.mlp().matrices() - 1;
        MoeSpec moe = m.moe();
        if (moe == null) {
            double ffn = (double) m.ffn() / t;
            return time + backwardPair(s.tokens(), upFactor * ffn, s.hidden(), p)
                    + backwardPair(s.tokens(), s.hidden(), ffn, p);
        }
        double ffn = (double) moe.expertFfn() / t;
        double localExperts = (double) moe.experts() / s.plan().ep();
        double perExpert = Math.ceil(s.tokens() * moe.topK() * moe.capacityFactor() / localExperts);
        time += backwardPair(s.tokens(), moe.experts(), s.hidden(), p);
        time += localExperts * (backwardPair(perExpert, upFactor * ffn, s.hidden(), p)
                + backwardPair(perExpert, s.hidden(), ffn, p));
        if (moe.sharedExperts() > 0) {
            double shared = ffn * moe.sharedExperts();
            time += backwardPair(s.tokens(), upFactor * shared, s.hidden(), p)
                    + backwardPair(s.tokens(), s.hidden(), shared, p);
        }
        return time;
    }

    private double backwardPair(double m, double n, double k, Precision p) {
        return gemm.seconds(m, k, n, p) + gemm.seconds(k, n, m, p);
    }

    // --- attention core (s x s part) ------------------------------------------------------------------------------

    private double attentionCoreGemmForward(LayerShape s, Precision p) {
        double batch = s.microBatch() * s.localHeads();
        if (s.plan().flashAttention()) {
            return flashForwardSeconds(s);
        }
        Precision scores = p == Precision.FP8 || p == Precision.FP4 ? Precision.BF16 : p;
        return gemm.seconds(batch, s.querySeq(), s.keySeq(), s.headDim(), scores)      // Q K^T
                + gemm.seconds(batch, s.querySeq(), s.headDim(), s.keySeq(), scores); // scores x V
    }

    private double attentionCoreGemmBackward(LayerShape s, Precision p) {
        if (s.plan().flashAttention()) {
            // FlashAttention-2 backward: 5 matmuls (recompute S, dV, dP, dQ, dK) against 2 forward = 2.5x.
            return 2.5 * flashForwardSeconds(s);
        }
        double batch = s.microBatch() * s.localHeads();
        Precision scores = p == Precision.FP8 || p == Precision.FP4 ? Precision.BF16 : p;
        return gemm.seconds(batch, s.querySeq(), s.keySeq(), s.headDim(), scores)   // dP = dO V^T
                + gemm.seconds(batch, s.keySeq(), s.headDim(), s.querySeq(), scores) // dV = P^T dO
                + gemm.seconds(batch, s.querySeq(), s.headDim(), s.keySeq(), scores) // dQ = dS K
                + gemm.seconds(batch, s.keySeq(), s.headDim(), s.querySeq(), scores); // dK = dS^T Q
    }

    /** Fused causal attention forward: half the s x s block is skipped; rate from the FlashAttention-2 benchmark. */
    private double flashForwardSeconds(LayerShape s) {
        double flops = 4 * s.microBatch() * s.localHeads() * s.querySeq() * s.keySeq() * s.headDim() * 0.5;
        return flops / (chip.peakFlopsPerSecond(Precision.BF16) * chip.family().flashFraction())
                + chip.family().kernelLaunchSeconds();
    }

    /** Unfused scale-mask-softmax (read 2 B, write 2 B per score) and attention dropout (read 2, write 2, mask 1). */
    private double attentionCoreMemoryForward(LayerShape s) {
        if (s.plan().flashAttention()) {
            return 0;
        }
        double scores = s.microBatch() * s.localHeads() * s.querySeq() * s.keySeq();
        double bytes = scores * 4 + (s.dropout() ? scores * 5 : 0);
        return memory.seconds(bytes, scores * 5, s.dropout() ? 2 : 1);
    }

    /** Softmax backward (read P and dP, write dS: 6 B) and dropout backward (read grad and mask, write: 5 B). */
    private double attentionCoreMemoryBackward(LayerShape s) {
        if (s.plan().flashAttention()) {
            return 0;
        }
        double scores = s.microBatch() * s.localHeads() * s.querySeq() * s.keySeq();
        double bytes = scores * 6 + (s.dropout() ? scores * 5 : 0);
        return memory.seconds(bytes, scores * 4, s.dropout() ? 2 : 1);
    }

    // --- memory-bound elementwise ops -----------------------------------------------------------------------------

    /**
     * Forward elementwise traffic in 16 bits: two norms (read h, write h), two residual paths (GPT: fused
     * bias-dropout-add reads x and the residual, writes the sum and a 1-byte mask; Llama: residual add), the MLP
     * activation (GeLU: read and write ffn; SwiGLU: read 2 ffn, write ffn) and, for Llama-style models, rotary
     * embedding of Q and K.
     */
    private double elementwiseForward(LayerShape s) {
        ModelSpec m = s.model();
        int t = s.plan().tp();
        double h = s.hidden();
        double norms = 2 * (2 * h * ACT_BYTES) * s.normTokens();
        double residuals = 2 * (s.dropout() ? 3 * h * ACT_BYTES + h : 3 * h * ACT_BYTES) * s.normTokens();
        double ffn = m.moe() == null ? (double) m.ffn() / t
                : (double) m.moe().expertFfn() / t * m.moe().topK() * m.moe().capacityFactor();
        double activation = (m.mlp().matrices() == 3 ? 3 : 2) * ffn * ACT_BYTES * s.tokens();
        double rotary = s.dropout() ? 0 : 2 * (s.qkvWidth() - (double) m.kvWidth() / t) * ACT_BYTES * s.tokens();
        double flops = (2 * 5 * h + 2 * h) * s.normTokens() + 8 * ffn * s.tokens();
        return memory.seconds(norms + residuals + activation + rotary, flops, s.dropout() ? 5 : 6);
    }

    /**
     * FP8/FP4 GEMMs take quantized inputs: each of the four linears casts its 16-bit input (forward) or output
     * gradient (backward) once, reading 2 B and writing the narrow copy, with an amax reduction fused in
     * (Transformer Engine's cast kernels). Weights are cast once per step, which is negligible per micro-batch.
     */
    private double lowPrecisionCasts(LayerShape s) {
        Precision p = s.plan().precision();
        if (p != Precision.FP8 && p != Precision.FP4) {
            return 0;
        }
        ModelSpec m = s.model();
        int t = s.plan().tp();
        double ffn = m.moe() == null ? (double) m.ffn() / t
                : (double) m.moe().expertFfn() / t * m.moe().topK() * m.moe().capacityFactor();
        double elements = s.tokens() * (2 * s.hidden() + s.hidden() / t + ffn);
        return memory.seconds(elements * (ACT_BYTES + p.bytes()), elements, 4);
    }

    // --- communication --------------------------------------------------------------------------------------------

    /**
     * Two TP collectives per pass (after the projection and after MLP-down, or their conjugates in backward): an
     * all-reduce of [tokens, h] each, or under SP an all-gather plus a reduce-scatter of the same bytes.
     */
    private double tpCommunication(LayerShape s) {
        if (s.tp().size() == 1) {
            return 0;
        }
        double bytes = s.activationBytes();
        if (s.plan().sp()) {
            return collectives.repeat(2, collectives.allGather(bytes, s.tp()))
                    + collectives.repeat(2, collectives.reduceScatter(bytes, s.tp()));
        }
        return collectives.repeat(2, collectives.allReduce(bytes, s.tp()));
    }

    /**
     * Under SP the gathered input of QKV and MLP-up is not kept: backward all-gathers it again for the weight
     * gradients (Korthikanti et al. 2022 sec. 4.2.2).
     */
    private double sequenceParallelRegather(LayerShape s) {
        if (!s.plan().sp() || s.tp().size() == 1) {
            return 0;
        }
        return collectives.repeat(2, collectives.allGather(s.activationBytes(), s.tp()));
    }

    /** Ring attention: K and V chunks travel cp-1 steps, overlapped with the attention compute they feed. */
    private double contextExchange(LayerShape s, double overlapSeconds) {
        if (s.cp().size() == 1) {
            return 0;
        }
        int c = s.cp().size();
        double kvBytes = s.microBatch() * s.querySeq() * 2.0 * s.model().kvWidth() / s.plan().tp() * ACT_BYTES;
        double comm = collectives.repeat(c - 1, collectives.sendRecv(kvBytes, s.cp().crossesDomains()));
        return Math.max(0, comm - overlapSeconds);
    }

    /** MoE dispatch and combine: two all-to-alls of each token's top-k copies. */
    private double expertExchange(LayerShape s) {
        MoeSpec moe = s.model().moe();
        if (moe == null || s.ep().size() == 1) {
            return 0;
        }
        double bytes = s.tokens() * moe.topK() * s.hidden() * ACT_BYTES;
        return collectives.repeat(2, collectives.allToAll(bytes, s.ep()));
    }
}
