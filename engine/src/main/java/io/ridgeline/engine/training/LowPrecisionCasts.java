package io.ridgeline.engine.training;

import io.ridgeline.engine.ops.MemoryBoundOp;
import io.ridgeline.engine.software.LowPrecisionRecipe;
import io.ridgeline.engine.workload.MlaSpec;
import io.ridgeline.engine.workload.ModelSpec;
import io.ridgeline.engine.workload.MoeSpec;

/**
 * The FP8/FP4 quantization casts of one transformer layer per pass (docs/MODEL.md sec. 3): forward quantizes every
 * linear's 16-bit input, backward every linear's output gradient, with the stack's recipe's DRAM traffic and kernels.
 */
final class LowPrecisionCasts {
    private final MemoryBoundOp memory;

    LowPrecisionCasts(MemoryBoundOp memory) {
        this.memory = memory;
    }

    /**
     * FP8/FP4 GEMMs take quantized inputs: each linear's 16-bit input is cast once in forward with the recipe's
     * traffic (Transformer Engine cast-transpose; current scaling reads the tensor once more for its amax): QKV's and
     * MLP-up's [T, h], the projection's [T, q], MLP-down's [T, ffn]; in an MoE layer the experts' over every routed
     * copy and a dense MLP-up input only for shared experts (the router GEMM stays 16-bit). Weights are cast once per
     * step, which is negligible per micro-batch. Backward: {@link #backward}.
     */
    double forward(LayerShape s) {
        if (!ModelStateMemory.lowPrecision(s.plan())) {
            return 0;
        }
        MoeSpec moe = s.model().moe();
        double mlpInput = moe == null || moe.sharedExperts() > 0 ? s.hidden() : 0;
        double elements = s.tokens() * (s.hidden() + s.qWidth() + mlpInput) + LayerTime.mlpWidthTokens(s)
                - LayerTime.fusedWidthTokens(s) + (moe == null ? 0 : s.expertTokens() * moe.topK() * s.hidden());
        return casts(s, elements);
    }

    /**
     * Backward casts quantize each linear's output gradient, not its input (Transformer Engine 1.8-2.x
     * fp8_cast_transpose(_bgrad)_fused on grad_output in every linear's backward, GroupedLinear per expert likewise;
     * torchao Float8Linear likewise): QKV's [T, q + 2 kv] (latent attention: its five projections' outputs), the
     * projection's [T, h], and the feed-forward's: MLP-up [T, up x ffn] and MLP-down [T, h], for an MoE layer over
     * every routed copy with the expert width plus the shared experts over every token. For a SwiGLU model that is
     * about twice the forward's elements. The fused MoE path keeps the forward count (its grouped kernels quantize in
     * their epilogues).
     */
    double backward(LayerShape s) {
        ModelSpec m = s.model();
        if (!ModelStateMemory.lowPrecision(s.plan()) || s.moeFastPath()) {
            return forward(s);
        }
        double up = m.mlp().matrices() - 1;
        double attention = m.mla() == null ? s.qkvWidth() + s.hidden() : latentAttentionGradientWidth(s);
        MoeSpec moe = m.moe();
        if (moe == null) {
            return casts(s, s.tokens() * (attention + up * m.ffn() / s.plan().tp() + s.hidden()));
        }
        double copies = s.expertTokens() * moe.topK() * moe.capacityFactor();
        double shared = (double) moe.expertFfn() * moe.sharedExperts() / s.plan().tp();
        double sharedWidth = moe.sharedExperts() > 0 ? up * shared + s.hidden() : 0;
        return casts(s, s.tokens() * (attention + sharedWidth) + copies * (up * s.expertFfn() + s.hidden()));
    }

    /**
     * Output widths of latent attention's linears per TP rank: query and key/value down-projections (not split over
     * TP), their per-head up-projections and the output projection (latentAttentionForward's GEMMs).
     */
    private static double latentAttentionGradientWidth(LayerShape s) {
        MlaSpec a = s.model().mla();
        double heads = s.localHeads();
        return a.qLoraRank() + heads * a.qkHeadDim() + a.kvLoraRank() + a.qkRopeHeadDim()
                + heads * (a.qkNopeHeadDim() + a.vHeadDim()) + s.hidden();
    }

    /** Cast-transpose of {@code elements} 16-bit elements with the stack's recipe, in castKernels(s) kernels. */
    private double casts(LayerShape s, double elements) {
        return memory.seconds(elements * s.plan().software().lowPrecisionRecipe().castBytesPerElement(), elements,
                castKernels(s));
    }

    /**
     * GPU kernels of one pass's casts: CAST_KERNELS, of which two are the routed experts' two GEMM inputs (forward) or
     * output gradients (backward). Transformer Engine's GroupedLinear quantizes those per local expert
     * (split_quantize): in one multi-tensor kernel only with delayed scaling, otherwise each expert's slice with the
     * recipe's own kernels (current scaling: amax, scale, cast), each paying its launch. The fused MoE path quantizes
     * in its grouped kernels' epilogues.
     */
    static int castKernels(LayerShape s) {
        MoeSpec moe = s.model().moe();
        LowPrecisionRecipe recipe = s.plan().software().lowPrecisionRecipe();
        if (moe == null || s.moeFastPath() || recipe.multiTensorKernel()) {
            return (int) LayerTime.CAST_KERNELS;
        }
        int local = moe.experts() / s.plan().ep();
        return (int) LayerTime.CAST_KERNELS - 2 + 2 * local * recipe.kernelsPerTensor();
    }
}
