package io.ridgeline.engine.training;

import io.ridgeline.engine.ops.MemoryBoundOp;

/**
 * The clamps of a clamped GLU (GPT-OSS: gate at most 7, linear half within +-7) where the stack runs them as eager
 * kernels over the routed experts' up-projection output [routed copies, 2 x expert ffn] before its fused activation:
 * Megatron-core core_v0.15.0-core_v0.18.0 fusions/fused_bias_geglu.py weighted_bias_quick_geglu_impl does
 * {@code input.chunk(2)}, {@code x_glu.clamp(max=v)}, {@code x_linear.clamp(-v, v)} and {@code torch.cat} outside the
 * compiled WeightedQuickGeGLUFunction, and autograd runs their backward. A stack that compiles the clamp into the
 * activation (TrainingBehaviour.gluClampFusion), or the fused MoE path (GLU in the grouped GEMM's epilogue), adds nothing.
 */
record EagerGluClamp(MemoryBoundOp memory) {
    /** Forward bytes per up-projection element: each half clamped (read 2, write 2), then torch.cat (read 2, write 2). */
    static final double FORWARD_BYTES = 4 + 4;
    /**
     * Backward bytes per up-projection element. PyTorch FunctionsManual.cpp clamp_backward: the gate half (max only)
     * {@code where(self <= max, grad, 0)}: le (read 2, write 1) and where (read 1 + 2, write 2), 8 B; the linear half
     * {@code where((self >= min).logical_and_(self <= max), grad, 0)}: ge and le (3 B each), logical_and_ (3 B) and
     * where (5 B), 14 B; averaged over the two halves 11 B. The chunk's backward (split) then concatenates the two
     * halves' gradients (read 2, write 2).
     */
    static final double BACKWARD_BYTES = (8 + 14) / 2.0 + 4;
    /** Forward kernels: two clamps and the concatenation. */
    static final double FORWARD_KERNELS = 3;
    /** Backward kernels: le + where, ge + le + logical_and_ + where, two zero scalars, the concatenation. */
    static final double BACKWARD_KERNELS = 2 + 4 + 2 + 1;

    /** Whether this layer runs the eager clamps. */
    static boolean applies(LayerShape s) {
        return s.model().moe() != null && s.model().clampedGlu() && !s.plan().software().gluClampFusion()
                && !s.moeFastPath();
    }

    /** Forward time of the eager clamps (0 where they do not apply). */
    double forward(LayerShape s) {
        return applies(s) ? memory.seconds(elements(s) * FORWARD_BYTES, 0, (int) FORWARD_KERNELS) : 0;
    }

    /** Backward time of the eager clamps' autograd (0 where they do not apply). */
    double backward(LayerShape s) {
        return applies(s) ? memory.seconds(elements(s) * BACKWARD_BYTES, 0, (int) BACKWARD_KERNELS) : 0;
    }

    /** Kernels the host launches for them in one pass. */
    static double kernels(LayerShape s, boolean forward) {
        return applies(s) ? (forward ? FORWARD_KERNELS : BACKWARD_KERNELS) : 0;
    }

    /** Up-projection output elements of the routed experts on the device: routed copies x (gate + linear) width. */
    static double elements(LayerShape s) {
        double up = s.model().mlp().matrices() - 1;
        return s.expertTokens() * s.model().moe().topK() * s.model().moe().capacityFactor() * up * s.expertFfn();
    }
}
