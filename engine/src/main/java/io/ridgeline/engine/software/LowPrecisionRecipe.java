package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.LowerCaseId;

/**
 * How a stack scales tensors for FP8/FP4 GEMMs (Transformer Engine recipes; Micikevicius et al. 2022, OCP MX
 * specification 2023). The recipe decides the cast traffic before each low-precision GEMM and the quantized copies of
 * every weight a step keeps.
 */
public enum LowPrecisionRecipe implements LowerCaseId {
    /**
     * Per-tensor scale from an amax history of past steps: a fused cast-transpose reads 16 bits and writes the 8-bit
     * tensor and its transpose (Hopper FP8 GEMMs take only the TN layout, so backward needs the transpose).
     */
    DELAYED(0, 2, 1.0),
    /** Per-tensor scale from the tensor itself: an amax pass reads the input once more before the cast-transpose. */
    CURRENT(1, 2, 1.0),
    /** MXFP8: one E8M0 scale per 32 elements, computed in the cast; row- and column-wise copies for backward. */
    MXFP8(0, 2, 1.0 + 1.0 / 32),
    /** DeepSeek-style blockwise FP8: 1x128 activation and 128x128 weight scales, row- and column-wise copies. */
    BLOCKWISE(0, 2, 1.0 + 1.0 / 128),
    /** NVFP4: 4-bit values, one FP8 scale per 16 elements, row- and column-wise copies. */
    NVFP4(0, 2, 0.5 + 1.0 / 16);

    private final int extraReadPasses;
    /** Bytes per element of the quantized copies one tensor keeps: copies x (value + scale) bytes per copy. */
    private final double quantizedBytesPerElement;

    LowPrecisionRecipe(int extraReadPasses, int copies, double bytesPerElementPerCopy) {
        this.extraReadPasses = extraReadPasses;
        this.quantizedBytesPerElement = copies * bytesPerElementPerCopy;
    }

    /**
     * DRAM bytes to quantize one 16-bit element: read it (plus an amax pass for current scaling), write every copy
     * the GEMMs need (values and scales).
     */
    public double castBytesPerElement() {
        return 2.0 * (1 + extraReadPasses) + quantizedBytesPerElement;
    }

    /** Bytes per element of the quantized copies one tensor keeps (values and scales, all layouts). */
    public double quantizedBytesPerElement() {
        return quantizedBytesPerElement;
    }
}
