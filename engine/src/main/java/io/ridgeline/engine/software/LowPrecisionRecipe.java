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
    DELAYED(0, 2, 1.0, 1),
    /**
     * Per-tensor scale from the tensor itself: an amax pass reads the input once more before the cast-transpose.
     * Three kernels per tensor: amax, scale from amax, cast (Transformer Engine 2.10 pytorch/csrc/quantizer.cpp
     * Float8CurrentScalingQuantizer::quantize_impl: nvte_compute_amax_with_config, nvte_compute_scale_from_amax,
     * nvte_quantize_v2).
     */
    CURRENT(1, 2, 1.0, 3),
    /**
     * MXFP8: one E8M0 scale per 32 elements, computed in the cast; row- and column-wise copies for backward. One kernel
     * per tensor (quantizer.cpp MXFP8Quantizer::quantize: nvte_quantize_v2).
     */
    MXFP8(0, 2, 1.0 + 1.0 / 32, 1),
    /**
     * DeepSeek-style blockwise FP8: 1x128 activation and 128x128 weight scales, row- and column-wise copies. One
     * kernel per tensor (quantizer.cpp Float8BlockQuantizer::quantize: nvte_quantize_v2).
     */
    BLOCKWISE(0, 2, 1.0 + 1.0 / 128, 1),
    /**
     * NVFP4: 4-bit values, one FP8 scale per 16 elements, row- and column-wise copies. At least two kernels per
     * tensor: the global amax, then the cast (quantizer.cpp NVFP4Quantizer::quantize_impl; the random Hadamard
     * transform's column-wise path adds more, not counted).
     */
    NVFP4(0, 2, 0.5 + 1.0 / 16, 2);

    private final int extraReadPasses;
    /** Bytes per element of the quantized copies one tensor keeps: copies x (value + scale) bytes per copy. */
    private final double quantizedBytesPerElement;
    private final int kernelsPerTensor;

    LowPrecisionRecipe(int extraReadPasses, int copies, double bytesPerElementPerCopy, int kernelsPerTensor) {
        this.extraReadPasses = extraReadPasses;
        this.quantizedBytesPerElement = copies * bytesPerElementPerCopy;
        this.kernelsPerTensor = kernelsPerTensor;
    }

    /** GPU kernels that quantize one tensor with this recipe (Transformer Engine's quantizer for it). */
    public int kernelsPerTensor() {
        return kernelsPerTensor;
    }

    /**
     * Whether a list of tensors (Transformer Engine GroupedLinear's per-expert inputs and output gradients) is
     * quantized in one kernel: only delayed scaling has the fused multi-tensor cast-transpose (TE 2.10
     * pytorch/csrc/extensions/cast.cpp multi_tensor_quantize_impl, nvte_multi_cast_transpose: "Currently only have
     * fused kernel for FP8 delayed scaling"; every other recipe quantizes the tensors individually, as split_quantize
     * does per expert).
     */
    public boolean multiTensorKernel() {
        return this == DELAYED;
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
