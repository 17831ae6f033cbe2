package io.ridgeline.engine.hardware;

/**
 * Calibration constants shared by a chip generation (see catalog/families.csv for where each was fitted).
 *
 * @param gemmPeakFraction     sustained fraction of dense peak for large GEMMs
 * @param dramFraction         STREAM-copy bandwidth over datasheet bandwidth
 * @param l2Fraction           achievable fraction of the L2 bandwidth
 * @param kernelLaunchSeconds  fixed cost per kernel
 * @param tileOverheadCycles   prologue/epilogue cycles per GEMM output tile
 * @param overlapExponent      soft-roofline exponent p: t = (c^p + m^p)^(1/p)
 * @param flashFraction        FlashAttention-2 forward throughput over dense 16-bit peak
 * @param gemmLowPrecisionFraction sustained fraction of the FP8/FP4 dense peak for large GEMMs
 * @param fusedAttentionFraction   forward throughput of the generation's own fused attention (FlashAttention-3 /
 *                             cuDNN on Hopper, cuDNN on Blackwell; FlashAttention-2 where nothing newer exists) over
 *                             dense 16-bit peak
 */
public record ChipFamily(String name, double gemmPeakFraction, double dramFraction, double l2Fraction,
                         double kernelLaunchSeconds, double tileOverheadCycles, double overlapExponent,
                         double flashFraction, double gemmLowPrecisionFraction, double fusedAttentionFraction,
                         String source) {
    public ChipFamily {
        if (!(gemmPeakFraction > 0 && gemmPeakFraction <= 1) || !(dramFraction > 0 && dramFraction <= 1)
                || !(l2Fraction > 0 && l2Fraction <= 1) || kernelLaunchSeconds < 0 || tileOverheadCycles < 0
                || !(overlapExponent >= 1) || !(flashFraction > 0 && flashFraction <= 1)
                || !(gemmLowPrecisionFraction > 0 && gemmLowPrecisionFraction <= 1)
                || !(fusedAttentionFraction > 0 && fusedAttentionFraction <= 1)) {
            throw new IllegalArgumentException("invalid calibration for family " + name);
        }
    }
}
