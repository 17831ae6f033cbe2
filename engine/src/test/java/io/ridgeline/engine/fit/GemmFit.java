package io.ridgeline.engine.fit;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.ChipFamily;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.spec.CsvTable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Grid fit of a chip family's GEMM constants on microbenchmarks: {@code gemm_peak_fraction} (16-bit),
 * {@code gemm_low_precision_fraction} (FP8/FP4) and {@code tile_overhead_cycles} (shared), minimising the mean
 * |error| over GEMM rows of case files (phase gemm, metric tflops, a GPU of the family) and published best-shape points
 * (the ml-engineering MAMF table). The overlap exponent stays as catalogued.
 *
 * <p>Usage (scripts/fit-gemm): {@code FAMILY [--overhead CYCLES] [CASE_FILE...] [GPU:PRECISION:M:N:K:TFLOPS...]};
 * {@code --overhead} fixes the tile overhead (when the points are all best shapes, which cannot separate it from the
 * fractions).
 */
public final class GemmFit {
    private GemmFit() {
    }

    record Point(String gpu, Precision precision, double m, double n, double k, double tflops) {
    }

    public static void main(String[] args) {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: FAMILY [CASE_FILE...] [GPU:PRECISION:M:N:K:TFLOPS...]");
        }
        String family = args[0];
        HardwareCatalog hw = HardwareCatalog.bundled();
        List<Point> points = new ArrayList<>();
        double fixedOverhead = -1;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--overhead")) {
                fixedOverhead = Double.parseDouble(args[++i]);
                continue;
            }
            if (args[i].contains(":")) {
                String[] x = args[i].split(":");
                points.add(new Point(x[0], Precision.parse(x[1]), Double.parseDouble(x[2]), Double.parseDouble(x[3]),
                        Double.parseDouble(x[4]), Double.parseDouble(x[5])));
                continue;
            }
            for (CsvTable.Row r : CsvTable.read(Path.of(args[i])).rows()) {
                if (r.string("phase").equals("gemm") && hw.hasChip(r.string("gpu"))
                        && hw.chip(r.string("gpu")).family().name().equals(family)) {
                    points.add(new Point(r.string("gpu"), r.isEmpty("precision") ? Precision.FP16
                            : Precision.parse(r.raw("precision")), r.positive("m"), r.positive("n"), r.positive("k"),
                            r.positive("measured")));
                }
            }
        }
        boolean any16 = points.stream().anyMatch(p -> !low(p.precision()));
        boolean anyLow = points.stream().anyMatch(p -> low(p.precision()));
        ChipFamily f0 = hw.chips().values().stream().filter(c -> c.family().name().equals(family)).findFirst()
                .orElseThrow().family();
        double[] best = {f0.gemmPeakFraction(), f0.gemmLowPrecisionFraction(), f0.tileOverheadCycles()};
        double bestError = Double.MAX_VALUE;
        for (int o = 0; o <= (fixedOverhead >= 0 ? 0 : 30); o++) {
            double overhead = fixedOverhead >= 0 ? fixedOverhead : 100.0 * o;
            for (int a = 0; a <= (any16 ? 50 : 0); a++) {
                double f16 = any16 ? 0.60 + 0.008 * a : f0.gemmPeakFraction();
                for (int b = 0; b <= (anyLow ? 50 : 0); b++) {
                    double fLow = anyLow ? 0.60 + 0.008 * b : f0.gemmLowPrecisionFraction();
                    double e = meanError(hw, points, f16, fLow, overhead);
                    if (e < bestError - 1e-12) {
                        bestError = e;
                        best = new double[]{f16, fLow, overhead};
                    }
                }
            }
        }
        System.out.printf(Locale.ROOT, "%s: %d points; best gemm_peak_fraction %.3f, gemm_low_precision_fraction %.3f, "
                + "tile_overhead_cycles %.0f: mean |error| %.2f%%%n", family, points.size(), best[0], best[1], best[2],
                bestError);
        for (Point p : points) {
            Chip c = with(hw.chip(p.gpu()), best[0], best[1], best[2]);
            double t = new GemmModel(c).achievedFlopsPerSecond(p.m(), p.n(), p.k(), p.precision()) / 1e12;
            System.out.printf(Locale.ROOT, "  %-9s %-4s %6.0f x %6.0f x %6.0f  model %7.1f  measured %7.1f  %+5.1f%%%n",
                    p.gpu(), p.precision().id(), p.m(), p.n(), p.k(), t, p.tflops(), 100 * (t - p.tflops()) / p.tflops());
        }
    }

    private static boolean low(Precision p) {
        return p == Precision.FP8 || p == Precision.FP4;
    }

    private static double meanError(HardwareCatalog hw, List<Point> points, double f16, double fLow, double overhead) {
        double sum = 0;
        for (Point p : points) {
            Chip c = with(hw.chip(p.gpu()), f16, fLow, overhead);
            double t = new GemmModel(c).achievedFlopsPerSecond(p.m(), p.n(), p.k(), p.precision()) / 1e12;
            sum += Math.abs(t - p.tflops()) / p.tflops();
        }
        return 100 * sum / points.size();
    }

    static Chip with(Chip c, double f16, double fLow, double overhead) {
        ChipFamily x = c.family();
        ChipFamily y = new ChipFamily(x.name(), f16, x.dramFraction(), x.l2Fraction(), x.kernelLaunchSeconds(),
                overhead, x.overlapExponent(), x.flashFraction(), fLow, x.fusedAttentionFraction(), x.source());
        double[] peaks = new double[Precision.values().length];
        for (Precision q : Precision.values()) {
            peaks[q.ordinal()] = c.supports(q) ? c.peakFlopsPerSecond(q) : 0;
        }
        return new Chip(c.id(), c.name(), y, c.memoryType(), c.memoryBytes(), c.memoryBytesPerSecond(), peaks,
                c.smCount(), c.clockHz(), c.l2Bytes(), c.l2BytesPerSecond(), c.smemBytesPerSm(), c.scaleUpLink(),
                c.scaleUpBytesPerSecond(), c.scaleUpDomain(), c.tdpWatts(), c.priceUsd(), c.source());
    }
}
