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
 * @param flashFraction        fused-attention forward throughput over dense peak
 * @param fp4GemmFraction      sustained fraction of the dense fp4 peak for large block-scaled (NVFP4) GEMMs; the
 *                             16-bit {@code gemmPeakFraction} where no fp4 value is catalogued
 */
public record ChipFamily(String name, double gemmPeakFraction, double dramFraction, double l2Fraction,
                         double kernelLaunchSeconds, double tileOverheadCycles, double overlapExponent, double flashFraction, String source,
                         double fp4GemmFraction) {

    /** A family without a separate fp4 GEMM efficiency (fp4 GEMMs at the 16-bit fraction). */
    public ChipFamily(String name, double gemmPeakFraction, double dramFraction, double l2Fraction,
                      double kernelLaunchSeconds, double tileOverheadCycles, double overlapExponent,
                      double flashFraction, String source) {
        this(name, gemmPeakFraction, dramFraction, l2Fraction, kernelLaunchSeconds, tileOverheadCycles,
                overlapExponent, flashFraction, source, gemmPeakFraction);
    }

    /** The sustained GEMM fraction of the dense peak for a format (fp4: {@link #fp4GemmFraction}). */
    public double gemmPeakFraction(Precision p) {
        return p == Precision.FP4 ? fp4GemmFraction : gemmPeakFraction;
    }

    /** A copy with another fp4 GEMM fraction (fits: scripts/fit-serving). */
    public ChipFamily withFp4GemmFraction(double f) {
        return new ChipFamily(name, gemmPeakFraction, dramFraction, l2Fraction, kernelLaunchSeconds,
                tileOverheadCycles, overlapExponent, flashFraction, source, f);
    }

    public ChipFamily {
        if (!(fp4GemmFraction > 0 && fp4GemmFraction <= 1)) {
            throw new IllegalArgumentException("invalid fp4 GEMM fraction for family " + name);
        }
        if (!(gemmPeakFraction > 0 && gemmPeakFraction <= 1) || !(dramFraction > 0 && dramFraction <= 1)
                || !(l2Fraction > 0 && l2Fraction <= 1) || kernelLaunchSeconds < 0 || tileOverheadCycles < 0
                || !(overlapExponent >= 1) || !(flashFraction > 0 && flashFraction <= 1)) {
            throw new IllegalArgumentException("invalid calibration for family " + name);
        }
    }
}
