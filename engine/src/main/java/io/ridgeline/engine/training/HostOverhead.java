package io.ridgeline.engine.training;

/**
 * The host side of eager execution: every kernel costs the CPU a dispatch (Python, autograd, the PyTorch dispatcher,
 * the CUDA launch). The CPU runs ahead of the GPU, so a pass takes max(GPU time, kernels x dispatch): small
 * micro-batches and narrow models become launch-bound, large ones never notice.
 */
public final class HostOverhead {
    /**
     * The stack whose {@code training.host_us_per_kernel} applies when the caller names no stack (sweeps and eval
     * until they select one, issue 9). The value lives in catalog/stacks.yaml; catalog/fits.yaml says how it is fitted.
     */
    public static final String DEFAULT_STACK = "megatron-lm@2021";
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
    public static double passSeconds(double gpuSeconds, double kernels, double hostSecondsPerKernel) {
        return Math.max(gpuSeconds, kernels * hostSecondsPerKernel);
    }
}
