package io.ridgeline.engine.hardware;

/**
 * Calibration constants shared by a chip generation (see catalog/families.csv for where each was fitted).
 *
 * @param gemmPeakFraction     sustained fraction of the dense 16-bit peak for large GEMMs
 * @param dramFraction         STREAM-copy bandwidth over datasheet bandwidth
 * @param l2Fraction           achievable fraction of the L2 bandwidth
 * @param kernelLaunchSeconds  fixed cost per kernel
 * @param tileOverheadCycles   prologue/epilogue cycles per GEMM output tile
 * @param overlapExponent      soft-roofline exponent p: t = (c^p + m^p)^(1/p)
 * @param flashFraction        FlashAttention-2 forward throughput over dense 16-bit peak
 * @param gemmLowPrecisionFraction sustained fraction of the FP8 dense peak for large GEMMs (and of the FP4 peak where
 *                             no {@code fp4GemmFraction} is catalogued)
 * @param fusedAttentionFraction   forward throughput of the generation's own fused attention (FlashAttention-3 /
 *                             cuDNN on Hopper, cuDNN on Blackwell; FlashAttention-2 where nothing newer exists) over
 *                             dense 16-bit peak
 * @param fp4GemmFraction      sustained fraction of the dense FP4 peak for block-scaled (NVFP4) GEMMs
 * @param expPerClockPerSm     base-2 exponentials one SM's special-function units issue per clock (the softmax of
 *                             fused attention: one per score)
 * @param attentionTileOverheadKeys fused attention's fixed cost per query tile (loading Q, the softmax epilogue,
 *                             writing O and its statistics), in keys of tile work: a query tile over c keys takes as
 *                             long as c + this many would
 */
public record ChipFamily(String name, double gemmPeakFraction, double dramFraction, double l2Fraction,
                         double kernelLaunchSeconds, double tileOverheadCycles, double overlapExponent,
                         double flashFraction, double gemmLowPrecisionFraction, double fusedAttentionFraction,
                         String source, double fp4GemmFraction, double expPerClockPerSm,
                         double attentionTileOverheadKeys) {
    /** Exponentials per clock per SM on Ampere, Hopper and Blackwell (CUDA C Programming Guide, cc 8.x-10.0). */
    public static final double DEFAULT_EXP_PER_CLOCK_PER_SM = 16;
    /**
     * Fixed cost per query tile where families.csv leaves it empty: 64 keys, which with the half-masked diagonal
     * tile gives FlashAttention-3's causal sweep on H100 (c / (c + 128), AttentionTime).
     */
    public static final double DEFAULT_ATTENTION_TILE_OVERHEAD_KEYS = 64;

    public ChipFamily {
        if (!(gemmPeakFraction > 0 && gemmPeakFraction <= 1) || !(dramFraction > 0 && dramFraction <= 1)
                || !(l2Fraction > 0 && l2Fraction <= 1) || kernelLaunchSeconds < 0 || tileOverheadCycles < 0
                || !(overlapExponent >= 1) || !(flashFraction > 0 && flashFraction <= 1)
                || !(gemmLowPrecisionFraction > 0 && gemmLowPrecisionFraction <= 1)
                || !(fusedAttentionFraction > 0 && fusedAttentionFraction <= 1)
                || !(fp4GemmFraction > 0 && fp4GemmFraction <= 1) || !(expPerClockPerSm > 0)
                || attentionTileOverheadKeys < 0) {
            throw new IllegalArgumentException("invalid calibration for family " + name);
        }
    }

    /** A family whose FP4 GEMMs sustain the same share of their peak as FP8 ones. */
    public ChipFamily(String name, double gemmPeakFraction, double dramFraction, double l2Fraction,
                      double kernelLaunchSeconds, double tileOverheadCycles, double overlapExponent,
                      double flashFraction, double gemmLowPrecisionFraction, double fusedAttentionFraction,
                      String source) {
        this(name, gemmPeakFraction, dramFraction, l2Fraction, kernelLaunchSeconds, tileOverheadCycles,
                overlapExponent, flashFraction, gemmLowPrecisionFraction, fusedAttentionFraction, source,
                gemmLowPrecisionFraction, DEFAULT_EXP_PER_CLOCK_PER_SM, DEFAULT_ATTENTION_TILE_OVERHEAD_KEYS);
    }

    /** The sustained share of the dense peak of format {@code p} that a large GEMM reaches. */
    public double gemmPeakFraction(Precision p) {
        return switch (p) {
            case FP4 -> fp4GemmFraction;
            case FP8 -> gemmLowPrecisionFraction;
            default -> gemmPeakFraction;
        };
    }

    /** A copy with a chip's own measured 16-bit and FP8 GEMM efficiencies (chips.csv overrides). */
    public ChipFamily withGemmFractions(double sixteenBit, double lowPrecision) {
        return new ChipFamily(name, sixteenBit, dramFraction, l2Fraction, kernelLaunchSeconds, tileOverheadCycles,
                overlapExponent, flashFraction, lowPrecision, fusedAttentionFraction, source, fp4GemmFraction,
                expPerClockPerSm, attentionTileOverheadKeys);
    }
}
