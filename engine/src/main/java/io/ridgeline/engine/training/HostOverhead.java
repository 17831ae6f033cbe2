package io.ridgeline.engine.training;

/**
 * The host side of eager execution: every kernel costs the CPU a dispatch (Python, autograd, the PyTorch dispatcher,
 * the CUDA launch). The CPU runs ahead of the GPU, so a pass takes max(GPU time, kernels x dispatch): small
 * micro-batches and narrow models become launch-bound, large ones never notice. A device-to-host synchronisation
 * (the MoE all-to-all dispatcher's token counts) ends the run-ahead: the GPU then idles while the host launches the
 * kernels up to the next GPU work. The dispatch cost per kernel is the software profile's
 * {@code host_us_per_kernel}; CUDA graphs replay a captured step with no per-kernel host cost.
 */
public final class HostOverhead {
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

    /** Time of a pass: the GPU's (plus its waits on the host), unless the host cannot launch its kernels faster. */
    public static double passSeconds(Cost c, double hostSecondsPerKernel) {
        return Math.max(c.totalSeconds() + c.stallKernels() * hostSecondsPerKernel,
                c.kernels() * hostSecondsPerKernel);
    }
}
