package io.ridgeline.engine.training;

/**
 * The host side of eager execution: every kernel costs the CPU a dispatch (Python, autograd, the PyTorch dispatcher,
 * the CUDA launch). The CPU runs ahead of the GPU, so a pass takes max(GPU time, kernels x dispatch): small
 * micro-batches and narrow models become launch-bound, large ones never notice.
 */
public final class HostOverhead {
    /**
     * Host time per kernel of an eager PyTorch training loop (Python, autograd, dispatcher, CUDA launch; published
     * eager dispatch costs span ~5-50 us per op). Fitted: the one global constant minimising mean |error| over the
     * launch-bound vTrain single-node rows (Megatron-DeepSpeed, A100, hidden 1024-2048) on a 10-60 us grid (mean |error|
     * 30.6% at 10 us, 15.2% at 30, 9.6% at 35, 10.7% at 40, 23% at 50); it does not move any large-model case (they
     * are GPU-bound). docs/ACCURACY.md shows the effect.
     */
    public static final double SECONDS_PER_KERNEL = 35e-6;
    /**
     * Kernels of one Megatron-LM GPT layer forward, counted from its modules: 2 norms, QKV/projection/fc1/fc2 GEMMs,
     * Q/K/V reshape copies (3), QK^T and score x V batched GEMMs, fused scale-mask-softmax, attention dropout, context
     * transpose, bias-GeLU, 2 bias-dropout-adds, 2 TP collectives, and about 5 bookkeeping ops (views made contiguous,
     * RNG tracker, casts).
     */
    public static final double FORWARD_KERNELS_PER_LAYER = 25;
    /** Backward is about twice the forward's kernels (data and weight gradients, autograd bookkeeping). */
    public static final double BACKWARD_KERNELS_PER_LAYER = 50;

    private HostOverhead() {
    }

    /** Time of a pass: the GPU's, unless the host cannot launch its kernels that fast. */
    public static double passSeconds(double gpuSeconds, double kernels) {
        return Math.max(gpuSeconds, kernels * SECONDS_PER_KERNEL);
    }
}
