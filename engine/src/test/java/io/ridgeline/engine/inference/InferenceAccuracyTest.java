package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.CsvTable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Validation gate: the NeMo Llama-2 inference cases of cases-dev.csv (batch 1, TP 1-8, A100 and H100). Thresholds from
 * issue 3: mean |error| <= 6% and max <= 15% on each GPU, and the 7B TP8/TP1 speed-up within 10% of the measured one.
 */
class InferenceAccuracyTest {
    static final double MEAN_LIMIT = 0.06;
    static final double MAX_LIMIT = 0.15;

    record Scored(String caseId, String gpu, String model, int tp, int input, int output, double predicted,
                  double measured) {
        double error() {
            return (predicted - measured) / measured;
        }
    }

    static List<Scored> scored;

    static Path validationDir() {
        String dir = System.getProperty("ridgeline.validation.dir", "../validation");
        return Path.of(dir);
    }

    @BeforeAll
    static void score() {
        Path file = validationDir().resolve("cases-dev.csv");
        assertTrue(Files.exists(file), "validation cases not found: " + file.toAbsolutePath());
        CsvTable t = CsvTable.read(file);
        HardwareCatalog catalog = HardwareCatalog.bundled();
        InferenceStep step = new InferenceStep(catalog);
        scored = new ArrayList<>();
        for (CsvTable.Row row : t.rows()) {
            if (!row.string("phase").equals("inference")) {
                continue;
            }
            String metric = row.string("metric");
            // The row's framework (nemo-inference@2023) picks the runtime: eager launches, host and request costs.
            ServingBehaviour runtime = InferenceCases.runtime(row, StackCatalog.bundled());
            InferenceResult r = step.evaluate(InferenceCases.model(row), InferenceCases.system(row, catalog),
                    InferenceCases.plan(row, runtime), InferenceCases.workload(row, runtime));
            assertTrue(r.feasible(), row.string("case_id") + ": " + r.detail());
            scored.add(new Scored(row.string("case_id"), row.string("gpu"), row.string("model"),
                    (int) row.integer("tp"), (int) row.integer("input_len"), (int) row.integer("output_len"),
                    InferenceMetrics.predict(metric, r), row.positive("measured")));
        }
        System.out.println("case                                          predicted   measured   error");
        for (Scored s : scored) {
            System.out.printf(Locale.ROOT, "%-45s %9.4f  %9.4f  %+6.1f%%%n", s.caseId(), s.predicted(), s.measured(),
                    100 * s.error());
        }
        for (Map.Entry<String, double[]> e : perGpu().entrySet()) {
            System.out.printf(Locale.ROOT, "%s: n=%d mean |error| %.1f%%, max |error| %.1f%%%n", e.getKey(),
                    (int) e.getValue()[2], 100 * e.getValue()[0], 100 * e.getValue()[1]);
        }
    }

    /** gpu -> {mean |err|, max |err|, count}. */
    static Map<String, double[]> perGpu() {
        Map<String, double[]> out = new LinkedHashMap<>();
        for (Scored s : scored) {
            double[] a = out.computeIfAbsent(s.gpu(), k -> new double[3]);
            a[0] += Math.abs(s.error());
            a[1] = Math.max(a[1], Math.abs(s.error()));
            a[2]++;
        }
        for (double[] a : out.values()) {
            a[0] /= a[2];
        }
        return out;
    }

    @Test
    void coversAllThirtyNemoCasesOnBothGpus() {
        assertEquals(30, scored.size());
        assertEquals(2, perGpu().size());
    }

    @Test
    void meanAndMaxErrorWithinThresholdsOnEachGpu() {
        for (Map.Entry<String, double[]> e : perGpu().entrySet()) {
            assertTrue(e.getValue()[0] <= MEAN_LIMIT, e.getKey() + " mean |error| " + e.getValue()[0]);
            assertTrue(e.getValue()[1] <= MAX_LIMIT, e.getKey() + " max |error| " + e.getValue()[1]);
        }
    }

    @Test
    void tensorParallelSpeedupOf7bMatchesMeasurement() {
        for (String gpu : List.of("a100-80g", "h100-sxm")) {
            for (int[] io : new int[][]{{200, 200}, {128, 20}}) {
                Scored tp1 = find(gpu, "Llama-2-7B", 1, io);
                Scored tp8 = find(gpu, "Llama-2-7B", 8, io);
                double predicted = tp1.predicted() / tp8.predicted();
                double measured = tp1.measured() / tp8.measured();
                System.out.printf(Locale.ROOT, "%s 7B %d/%d TP1/TP8 speed-up: predicted %.2fx, measured %.2fx%n", gpu,
                        io[0], io[1], predicted, measured);
                assertEquals(measured, predicted, 0.10 * measured, gpu + " " + io[0] + "/" + io[1]);
            }
        }
    }

    static Scored find(String gpu, String model, int tp, int[] io) {
        for (Scored s : scored) {
            if (s.gpu().equals(gpu) && s.model().equals(model) && s.tp() == tp && s.input() == io[0]
                    && s.output() == io[1]) {
                return s;
            }
        }
        throw new AssertionError("no case " + gpu + " " + model + " tp" + tp);
    }
}
