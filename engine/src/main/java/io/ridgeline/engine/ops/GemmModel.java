package io.ridgeline.engine.ops;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.Precision;

/**
 * Time of one (batched) GEMM C[m,n] = A[m,k] B[k,n] on one chip by a hierarchical roofline over output tiles
 * (DeepFlow/Optimus method, Kundu et al. 2024 sec. III):
 * <ul>
 *   <li>compute: output tiles spread over the SMs in waves; a wave costs the tile's MACs at the sustained per-SM rate
 *       plus a fixed prologue/epilogue ({@code tileOverheadCycles}); wave quantization falls out of the ceiling;</li>
 *   <li>L2: A is re-read once per tile column and B once per tile row;</li>
 *   <li>DRAM: operands read once and the output written once (L2 rasterization keeps panels resident);</li>
 * </ul>
 * the best of a CUTLASS-like tile set and split-K factor is taken, as cuBLAS heuristics do. One instance per chip
 * and thread: it caches results per shape, which is what makes plan searches cheap.
 */
public final class GemmModel {
    /** CUTLASS/cuBLAS threadblock tiles (m x n) for 16-bit tensor-core GEMMs. */
    private static final int[][] TILES = {{256, 128}, {128, 256}, {128, 128}, {128, 64}, {64, 128}, {64, 64}};

    private static final int MAX_SPLIT_K = 4;
    /** cuBLAS splits K only while each slice keeps a deep enough main loop. */
    private static final double MIN_SPLIT_K_DEPTH = 256;

    private final Chip chip;
    private final double clockHz;
    private final int sms;
    private final double l2BytesPerSecond;
    private final double dramBytesPerSecond;
    private final double launchSeconds;
    private final double tileOverheadCycles;
    private final double overlapExponent;
    /** Sustained share of each format's dense peak, indexed by {@link Precision#ordinal()} (families.csv). */
    private final double[] peakFraction = new double[Precision.values().length];
    private final ShapeCache cache = new ShapeCache();
    /** Running DRAM-byte meter for the energy model (operands once, output once; split-K partials not counted). */
    private double meteredDramBytes;

    public GemmModel(Chip chip) {
        this.chip = chip;
        this.clockHz = chip.clockHz();
        this.sms = chip.smCount();
        this.l2BytesPerSecond = chip.l2BytesPerSecond() * chip.family().l2Fraction();
        this.dramBytesPerSecond = chip.effectiveMemoryBytesPerSecond();
        this.launchSeconds = chip.family().kernelLaunchSeconds();
        this.tileOverheadCycles = chip.family().tileOverheadCycles();
        this.overlapExponent = chip.family().overlapExponent();
        for (Precision p : Precision.values()) {
            peakFraction[p.ordinal()] = chip.family().gemmPeakFraction(p);
        }
    }

    public Chip chip() {
        return chip;
    }

    /** Seconds for one GEMM, inputs and output in {@code p}. */
    public double seconds(double m, double n, double k, Precision p) {
        return seconds(1, m, n, k, p);
    }

    /** Seconds for {@code batch} independent GEMMs of the same shape in one kernel (batched GEMM). */
    public double seconds(double batch, double m, double n, double k, Precision p) {
        if (m <= 0 || n <= 0 || k <= 0 || batch <= 0) {
            return 0;
        }
        meteredDramBytes += batch * (m * k + k * n + m * n) * p.bytes();
        double cached = cache.get(batch, m, n, k, p.ordinal());
        if (!Double.isNaN(cached)) {
            return cached;
        }
        double seconds = compute(batch, m, n, k, p);
        cache.put(batch, m, n, k, p.ordinal(), seconds);
        return seconds;
    }

    private double compute(double batch, double m, double n, double k, Precision p) {
        double bytes = p.bytes();
        // FP8 and FP4 GEMMs sustain their own share of their own peak (families.csv gemm_low_precision_fraction,
        // fp4_gemm_fraction).
        double flopsPerCyclePerSm = chip.peakFlopsPerSecond(p) * peakFraction[p.ordinal()] / (sms * clockHz);
        // DRAM: each operand once, the output once.
        double dramSeconds = batch * (m * k + k * n + m * n) * bytes / dramBytesPerSecond;
        double best = Double.MAX_VALUE;
        for (int[] tile : TILES) {
            double tm = tile[0];
            double tn = tile[1];
            double tilesM = Math.ceil(m / tm);
            double tilesN = Math.ceil(n / tn);
            double l2Seconds = batch * (m * k * tilesN + k * n * tilesM + m * n) * bytes / l2BytesPerSecond;
            for (int split = 1; split <= MAX_SPLIT_K; split++) {
                if (split > 1 && k / split < MIN_SPLIT_K_DEPTH) {
                    break;
                }
                // Split-K: more, shallower work units fill the last wave; partial sums (fp32) go through DRAM.
                double units = batch * tilesM * tilesN * split;
                double waves = Math.ceil(units / sms);
                double cyclesPerUnit = 2 * tm * tn * (k / split) / flopsPerCyclePerSm + tileOverheadCycles;
                double computeSeconds = waves * cyclesPerUnit / clockHz;
                double partials = split > 1 ? batch * m * n * 4 * 2 * split / dramBytesPerSecond : 0;
                double memorySeconds = Math.max(l2Seconds, dramSeconds + partials);
                double t = Roofline.combine(computeSeconds, memorySeconds, overlapExponent);
                if (t < best) {
                    best = t;
                }
            }
        }
        return best + launchSeconds;
    }

    /** DRAM bytes of every GEMM timed by this model so far; callers read differences around the calls they count. */
    public double meteredDramBytes() {
        return meteredDramBytes;
    }

    /** Achieved FLOP/s of a GEMM (2mnk per product), as a microbenchmark would report it. */
    public double achievedFlopsPerSecond(double m, double n, double k, Precision p) {
        return 2 * m * n * k / seconds(m, n, k, p);
    }
}
