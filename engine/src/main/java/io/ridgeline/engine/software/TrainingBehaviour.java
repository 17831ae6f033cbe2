package io.ridgeline.engine.software;

import java.util.List;

/**
 * What a training framework does that changes a step's time and memory (docs/MODEL.md, "Software stacks"). Read from
 * the {@code training} section of a {@code catalog/stacks.yaml} entry.
 *
 * @param attention        the attention-core kernel
 * @param gradReduceOverlap data-parallel gradient reduction bucketed and overlapped with backward (Megatron-core
 *                         overlap_grad_reduce, PyTorch DDP/FSDP buckets, DeepSpeed overlap_comm)
 * @param gradientBytes    bytes per parameter of the gradient buffer and of its DP reduction (4 = fp32 main_grad,
 *                         2 = reduced in the parameter dtype)
 * @param hostSecondsPerKernel host time to dispatch one kernel of the training loop (Python, autograd, dispatcher,
 *                         launch); a pass takes max(GPU time, kernels x this) ({@code training.HostOverhead}). Catalogue
 *                         key {@code host_us_per_kernel}, in microseconds
 */
public record TrainingBehaviour(AttentionKernel attention, boolean gradReduceOverlap, double gradientBytes,
                                double hostSecondsPerKernel) {

    /** The keys of a {@code training} section, in catalogue order. */
    public static final List<String> KEYS = List.of("attention", "grad_reduce_overlap", "gradient_bytes",
            "host_us_per_kernel");

    static TrainingBehaviour read(StackFields f) {
        return new TrainingBehaviour(f.choice("attention", AttentionKernel.class), f.bool("grad_reduce_overlap"),
                f.number("gradient_bytes", 2, 4), f.number("host_us_per_kernel", 0, 1000) * 1e-6);
    }
}
