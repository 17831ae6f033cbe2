package io.ridgeline.bench;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.SystemSpec;
import io.ridgeline.engine.inference.InferenceCases;
import io.ridgeline.engine.inference.InferenceMetrics;
import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.inference.InferenceStep;
import io.ridgeline.engine.inference.InferenceWorkload;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.CsvTable;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Reproduces the one serving constant fitted on end-to-end rows (docs/INFERENCE.md, "Fitted constants"): the
 * Blackwell family's {@code fp4_gemm_fraction} (catalog/families.csv), the sustained share of the dense fp4 peak
 * that block-scaled NVFP4 GEMMs reach. Fitted by a grid over [0.30, 0.78] in steps of 0.005 minimising the mean
 * |error| of the {@code precision = fp4} inference rows of the given case file (the TensorRT-LLM 1.0 trtllm-bench
 * Llama 3.3 70B rows on B200 and GB200); every other constant stays as catalogued. Also prints hold-out checks: fit on
 * one GPU and score the other, fit on the rows with input <= 1000 tokens and score the longer ones.
 *
 * <p>Usage: {@code scripts/fit-serving [validation/cases-dev-2.csv]}.
 */
public final class FitServing {
    private static final double GRID_FROM = 0.30;
    private static final double GRID_TO = 0.78;
    private static final double GRID_STEP = 0.005;

    private record Row(CsvTable.Row row, String gpu, int inputTokens) {
    }

    private FitServing() {
    }

    public static void main(String[] args) {
        Path file = Path.of(args.length > 0 ? args[0] : "validation/cases-dev-2.csv");
        List<Row> rows = new ArrayList<>();
        for (CsvTable.Row r : CsvTable.read(file).rows()) {
            if ("inference".equals(r.string("phase")) && "fp4".equals(r.stringOr("precision", ""))) {
                rows.add(new Row(r, r.string("gpu"), (int) r.integer("input_len")));
            }
        }
        System.out.printf(Locale.ROOT, "fp4 inference rows: %d (%s)%n", rows.size(), file);
        report("all rows", rows, x -> true, x -> true);
        report("fit on b200, score gb200", rows, x -> x.gpu.equals("b200"), x -> x.gpu.equals("gb200"));
        report("fit on gb200, score b200", rows, x -> x.gpu.equals("gb200"), x -> x.gpu.equals("b200"));
        report("fit on input <= 1000, score input > 1000", rows, x -> x.inputTokens <= 1000,
                x -> x.inputTokens > 1000);
    }

    private static void report(String name, List<Row> rows, Predicate<Row> fitOn, Predicate<Row> scoreOn) {
        double best = Double.NaN;
        double bestError = Double.MAX_VALUE;
        for (double f = GRID_FROM; f <= GRID_TO + 1e-9; f += GRID_STEP) {
            double e = meanAbsError(rows, fitOn, f);
            if (e < bestError) {
                bestError = e;
                best = f;
            }
        }
        System.out.printf(Locale.ROOT, "%-42s fp4_gemm_fraction %.3f  fit mean |error| %5.1f%%  scored mean |error| "
                + "%5.1f%%%n", name, best, 100 * bestError, 100 * meanAbsError(rows, scoreOn, best));
    }

    private static double meanAbsError(List<Row> rows, Predicate<Row> use, double fp4Fraction) {
        HardwareCatalog hw = HardwareCatalog.bundled();
        StackCatalog stacks = StackCatalog.bundled();
        InferenceStep step = new InferenceStep();
        double sum = 0;
        int n = 0;
        for (Row x : rows) {
            if (!use.test(x)) {
                continue;
            }
            CsvTable.Row r = x.row;
            SystemSpec s = InferenceCases.system(r, hw);
            Chip chip = s.chip().withFamily(s.chip().family().withFp4GemmFraction(fp4Fraction));
            ServingBehaviour runtime = InferenceCases.runtime(r, stacks);
            InferencePlan plan = InferenceCases.plan(r, runtime);
            InferenceWorkload w = InferenceCases.workload(r, runtime);
            InferenceResult res = step.evaluate(InferenceCases.model(r), s.withChip(chip), plan, w);
            double predicted = InferenceMetrics.predict(r.string("metric"), res);
            double measured = r.positive("measured");
            sum += Math.abs(predicted - measured) / measured;
            n++;
        }
        return n == 0 ? Double.NaN : sum / n;
    }
}
