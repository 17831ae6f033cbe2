package io.ridgeline.engine.validation;

import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.CsvTable;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * validation/cases-dev-5.csv (validation/cases-dev-5.md): TensorRT-LLM perf-overview throughput tables of versions
 * 0.12, 0.13, 0.15 and 0.21, which no profile was built on. Every row parses and is scored (a run that ran is never
 * infeasible and never lacks a field), and each version finds an in-flight-batching profile (the tables' empty
 * {@code batch} is saturation, which a static-batching profile cannot score): its own (0.15, whose KV-cache fraction
 * its document states) or the nearest earlier catalogued one.
 */
class UnseenRunsFiveTest {
    private static final ScoredCaseFile FILE = ScoredCaseFile.score("cases-dev-5.csv");

    @Test
    void everyRowIsAServingRunAndIsScored() {
        assertEquals(FILE.rows().size(), FILE.outcomes().size());
        assertEquals(224, FILE.group("trt-llm@0.12").size());
        assertEquals(443, FILE.group("trt-llm@0.13").size());
        assertEquals(230, FILE.group("trt-llm@0.15").size());
        assertEquals(120, FILE.group("trt-llm@0.21").size());
        assertEquals(1017, FILE.outcomes().size());
        FILE.assertEveryRowIsAScoredServingRun();
    }

    @Test
    void everyRowStatesTheShapeLengthsAndPlacementItWasMeasuredWith() {
        for (CsvTable.Row r : FILE.rows()) {
            String id = r.string("case_id");
            assertTrue(r.stringOr("batch", "").isEmpty(), id + ": saturation rows leave batch empty");
            assertTrue(r.integer("input_len") > 0 && r.integer("output_len") > 0, id);
            assertEquals(r.integer("num_gpus"), r.integer("tp") * r.integer("pp"), id);
            assertFalse(r.stringOr("precision", "").isEmpty(), id);
            assertFalse(r.stringOr("source", "").isEmpty(), id);
        }
    }

    @Test
    void eachVersionFindsAnInFlightBatchingProfileTheNearestEarlierWhereNoneIsItsOwn() {
        StackCatalog stacks = StackCatalog.bundled();
        Map<String, String> expected = Map.of("trt-llm@0.12", "trt-llm@0.10", "trt-llm@0.13", "trt-llm@0.10",
                "trt-llm@0.15", "trt-llm@0.15", "trt-llm@0.21", "trt-llm@0.20");
        for (CsvTable.Row r : FILE.rows()) {
            String framework = r.string("framework");
            StackCatalog.Resolution res = stacks.resolve(framework, "framework");
            assertEquals(expected.get(framework), res.profile().id(), r.string("case_id"));
            assertEquals(framework.equals("trt-llm@0.15"), res.exact(), res.describe());
            assertTrue(res.profile().serving().continuousBatching(), res.describe());
        }
    }

    @Test
    void fifteenStatesItsKvCacheFractionAndFourteenKeepsTheDefault() {
        // perf-overview.md v0.15.0: --kv_cache_free_gpu_mem_fraction 0.95 in most runs; v0.14.0 states none (0.90).
        StackCatalog stacks = StackCatalog.bundled();
        assertEquals(0.95, stacks.profile("trt-llm@0.15").serving().kvMemoryFraction(), 0.0);
        assertEquals(0.90, stacks.profile("trt-llm@0.14.0").serving().kvMemoryFraction(), 0.0);
        assertTrue(stacks.profile("trt-llm@0.15").source("serving.kv_memory_fraction").contains("0.15.0"));
    }
}
