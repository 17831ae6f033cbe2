package io.ridgeline.engine.fit;

import io.ridgeline.engine.calibration.CaseScorer;
import io.ridgeline.engine.calibration.CaseSelection;
import io.ridgeline.engine.calibration.Catalogs;
import io.ridgeline.engine.calibration.MeasuredCase;
import io.ridgeline.engine.calibration.ParameterKind;
import io.ridgeline.engine.calibration.ParameterRegistry;
import io.ridgeline.engine.spec.CatalogOverrides;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether one calibratable constant, fitted on some sources, can predict another (docs/CALIBRATION.md, "Why the H100
 * serving constants do not transfer"). For each constant named, every selected case is scored on a grid of values
 * across the constant's bounds (the others at their catalogue values); then, by mean |relative error| on that grid:
 * each source's own best value and what it gains there, the pooled best, and the leave-one-source-out error of the
 * grid fit (each source scored at the value that is best for all the other sources). Sources whose best values lie
 * on both sides of the catalogue value, with gains of several points, are what no fit of that constant reconciles.
 * A diagnostic, not a test: exact engine scores, no linearisation, no penalty.
 *
 * <p>Usage: {@code GPU PHASE PATH[,PATH...] CASE_FILE...}, e.g. {@code h100-sxm inference
 * families.hopper.gemm_low_precision_fraction,families.hopper.dram_fraction validation/cases-dev.csv
 * validation/cases-dev-vtrain.csv validation/cases-dev-2.csv validation/cases-dev-3.csv}.
 */
public final class TransferProbe {
    /** Grid points across a constant's bounds (both ends included). */
    private static final int GRID = 29;

    private TransferProbe() {
    }

    public static void main(String[] args) {
        List<Path> files = new ArrayList<>();
        for (String f : List.of(args).subList(3, args.length)) {
            files.add(Path.of(f));
        }
        CaseScorer scorer = CaseScorer.read(files);
        int[] selected = scorer.select(new CaseSelection(List.of(args[0]), List.of(), List.of(args[1]), List.of()));
        Catalogs bundled = Catalogs.bundled();
        Map<String, List<Integer>> bySource = new LinkedHashMap<>();
        double[] measured = new double[selected.length];
        for (int j = 0; j < selected.length; j++) {
            MeasuredCase c = scorer.cases().get(selected[j]);
            bySource.computeIfAbsent(c.source(), k -> new ArrayList<>()).add(j);
            measured[j] = c.measured();
        }
        System.out.printf(Locale.ROOT, "%d cases, %d sources%n", selected.length, bySource.size());
        for (String path : args[2].split(",")) {
            ParameterKind kind = ParameterRegistry.kindOf(path);
            double start = bundled.value(path);
            double[] values = new double[GRID];
            double[][] absError = new double[GRID][selected.length];
            double[] out = new double[selected.length];
            for (int g = 0; g < GRID; g++) {
                values[g] = kind.lower() + (kind.upper() - kind.lower()) * g / (GRID - 1);
                Catalogs at = Catalogs.of(new CatalogOverrides("probe", Map.of(path, values[g])));
                scorer.predict(at, selected, out);
                for (int j = 0; j < selected.length; j++) {
                    // A case without a prediction counts as a 100% error, as in the fit.
                    absError[g][j] = Double.isFinite(out[j]) ? Math.abs(out[j] - measured[j]) / measured[j] : 1.0;
                }
            }
            double[] catalogue = new double[selected.length];
            Catalogs base = Catalogs.bundled();
            scorer.predict(base, selected, out);
            for (int j = 0; j < selected.length; j++) {
                catalogue[j] = Double.isFinite(out[j]) ? Math.abs(out[j] - measured[j]) / measured[j] : 1.0;
            }
            System.out.printf(Locale.ROOT, "%n%s (catalogue %.4g, grid %.4g .. %.4g in %d steps)%n", path, start,
                    kind.lower(), kind.upper(), GRID - 1);
            System.out.printf(Locale.ROOT, "  %-70s %5s %9s %9s %9s %9s %9s%n", "source", "cases", "catalog%",
                    "own best", "there%", "held out", "held%");
            double heldSum = 0;
            double catalogueSum = 0;
            for (Map.Entry<String, List<Integer>> e : bySource.entrySet()) {
                List<Integer> in = e.getValue();
                int own = best(absError, in, null);
                int others = best(absError, null, in);
                double cat = mean(catalogue, in);
                double held = mean(absError[others], in);
                heldSum += held * in.size();
                catalogueSum += cat * in.size();
                System.out.printf(Locale.ROOT, "  %-70.70s %5d %9.2f %9.4g %9.2f %9.4g %9.2f%n", e.getKey(), in.size(),
                        100 * cat, values[own], 100 * mean(absError[own], in), values[others], 100 * held);
            }
            int pooled = best(absError, null, null);
            System.out.printf(Locale.ROOT, "  pooled best %.4g: %.3f%% (catalogue %.3f%%); leave-one-source-out of the "
                            + "grid fit %.3f%%%n", values[pooled], 100 * mean(absError[pooled], null),
                    100 * catalogueSum / selected.length, 100 * heldSum / selected.length);
        }
    }

    /** The grid index with the lowest mean |error| over {@code only} (all when null) minus {@code without}. */
    private static int best(double[][] absError, List<Integer> only, List<Integer> without) {
        int best = 0;
        double lowest = Double.POSITIVE_INFINITY;
        for (int g = 0; g < absError.length; g++) {
            double sum = 0;
            int n = 0;
            for (int j = 0; j < absError[g].length; j++) {
                boolean in = only == null ? without == null || !without.contains(j) : only.contains(j);
                if (in) {
                    sum += absError[g][j];
                    n++;
                }
            }
            if (n > 0 && sum / n < lowest) {
                lowest = sum / n;
                best = g;
            }
        }
        return best;
    }

    private static double mean(double[] v, List<Integer> only) {
        double sum = 0;
        int n = 0;
        for (int j = 0; j < v.length; j++) {
            if (only == null || only.contains(j)) {
                sum += v[j];
                n++;
            }
        }
        return sum / n;
    }
}
