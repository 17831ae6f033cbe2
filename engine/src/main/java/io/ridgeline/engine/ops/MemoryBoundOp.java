package io.ridgeline.engine.ops;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.Precision;

/**
 * Elementwise and reduction kernels (norms, activations, softmax, dropout, residual adds, optimizer): memory-bound,
 * so time is the larger of bytes over sustained DRAM bandwidth and FLOPs over the vector rate, plus a launch per
 * kernel.
 */
public final class MemoryBoundOp {
    private final double dramBytesPerSecond;
    private final double vectorFlopsPerSecond;
    private final double launchSeconds;
    /** Running DRAM-byte meter for the energy model. */
    private double meteredDramBytes;

    public MemoryBoundOp(Chip chip) {
        this.dramBytesPerSecond = chip.effectiveMemoryBytesPerSecond();
        // Non-tensor math runs on the vector units at the fp32 rate.
        this.vectorFlopsPerSecond = chip.peakFlopsPerSecond(Precision.FP32);
        this.launchSeconds = chip.family().kernelLaunchSeconds();
    }

    /** Seconds for {@code kernels} kernels moving {@code bytes} and doing {@code flops} in total. */
    public double seconds(double bytes, double flops, int kernels) {
        if (bytes <= 0 && flops <= 0) {
            return 0;
        }
        meteredDramBytes += bytes;
        double memory = bytes / dramBytesPerSecond;
        double compute = flops / vectorFlopsPerSecond;
        // Streaming kernels overlap their few FLOPs with memory traffic almost perfectly: a hard max.
        return Math.max(memory, compute) + kernels * launchSeconds;
    }

    /** DRAM bytes of every kernel timed by this model so far (a running meter; read differences). */
    public double meteredDramBytes() {
        return meteredDramBytes;
    }
}
