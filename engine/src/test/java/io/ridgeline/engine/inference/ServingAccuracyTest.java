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
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Validation gate for serving (issue 10): the 70 inference rows of cases-dev-2.csv, each scored through its
 * framework's stack profile. trt-llm@1.0 (50 trtllm-bench rows, empty batch = saturation) mean |error| <= 15% and
 * overall <= 12%, and trt-llm@0.5.0 (static batch throughput and batch-1 TTFT) <= 10%, as the issue asks. No row
 * here takes part in the gptSessionBenchmark per-call fit (fitted on the 0.8.0/0.9.0 rows of cases-dev-3.csv), and
 * Hopper rows take part in no fit at all (Blackwell's fp4 GEMM fraction is fitted on the fp4 rows only), so they are
 * checked on their own too.
 */
class ServingAccuracyTest {
    record Scored(String caseId, String framework, String gpu, String precision, double error) {
    }

    static List<Scored> scored;

    @BeforeAll
    static void score() {
        Path file = InferenceAccuracyTest.validationDir().resolve("cases-dev-2.csv");
        assertTrue(Files.exists(file), "validation cases not found: " + file.toAbsolutePath());
        HardwareCatalog hw = HardwareCatalog.bundled();
        StackCatalog stacks = StackCatalog.bundled();
        InferenceStep step = new InferenceStep(hw);
        scored = new ArrayList<>();
        for (CsvTable.Row row : CsvTable.read(file).rows()) {
            if (!row.string("phase").equals("inference")) {
                continue;
            }
            ServingBehaviour runtime = InferenceCases.runtime(row, stacks);
            InferenceResult r = step.evaluate(InferenceCases.model(row), InferenceCases.system(row, hw),
                    InferenceCases.plan(row, runtime), InferenceCases.workload(row, runtime));
            assertTrue(r.feasible(), row.string("case_id") + ": " + r.detail());
            double predicted = InferenceMetrics.predict(row.string("metric"), r);
            double measured = row.positive("measured");
            scored.add(new Scored(row.string("case_id"), row.string("framework"), row.string("gpu"),
                    row.stringOr("precision", ""), (predicted - measured) / measured));
            System.out.printf(Locale.ROOT, "%-28s %-14s %-9s %10.2f %10.2f %+6.1f%%%n", row.string("case_id"),
                    row.string("framework"), row.string("gpu"), predicted, measured,
                    100 * (predicted - measured) / measured);
        }
    }

    static double mean(Predicate<Scored> p) {
        double sum = 0;
        int n = 0;
        for (Scored s : scored) {
            if (p.test(s)) {
                sum += Math.abs(s.error());
                n++;
            }
        }
        System.out.printf(Locale.ROOT, "n=%d mean |error| %.1f%%%n", n, 100 * sum / n);
        return sum / n;
    }

    @Test
    void everyInferenceRowIsScored() {
        assertEquals(70, scored.size());
        for (Scored s : scored) {
            assertTrue(Double.isFinite(s.error()), s.caseId());
        }
    }

    @Test
    void trtLlm10SaturatedThroughputWithinFifteenPercent() {
        assertTrue(mean(s -> s.framework().equals("trt-llm@1.0")) <= 0.15);
    }

    @Test
    void hopperRowsThatNoFitSawStayWithinFifteenPercent() {
        assertTrue(mean(s -> s.framework().equals("trt-llm@1.0") && !s.precision().equals("fp4")) <= 0.15);
    }

    @Test
    void trtLlm05WithinTenPercent() {
        assertTrue(mean(s -> s.framework().equals("trt-llm@0.5.0")) <= 0.10);
    }

    @Test
    void allServingRowsWithinTwelvePercent() {
        assertTrue(mean(s -> true) <= 0.12);
    }
}
