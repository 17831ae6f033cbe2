package io.ridgeline.engine.validation;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.spec.CsvTable;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * validation/cases-dev-6.csv (validation/cases-dev-6.md): the TensorRT-LLM perf-overview columns of the PCIe cards the
 * earlier files left out for want of a GPU id (L40S, A100 PCIe, RTX PRO 6000 Blackwell Server Edition), scored against
 * presets built from datasheets alone. Every row maps to a catalogued part, is a serving run, and is scored; the
 * pipeline-parallel RTX runs (TP 1 x PP 2-8) are scored with their stages working at once.
 */
class UnseenRunsSixTest {
    private static final ScoredCaseFile FILE = ScoredCaseFile.score("cases-dev-6.csv");

    @Test
    void everyRowIsAScoredServingRunOnACataloguedPcieCard() {
        HardwareCatalog hw = HardwareCatalog.bundled();
        Map<String, Integer> byGpu = new HashMap<>();
        for (CsvTable.Row r : FILE.rows()) {
            String gpu = r.string("gpu");
            byGpu.merge(gpu, 1, Integer::sum);
            assertFalse(hw.chip(gpu).nvlinkScaleUp(), r.string("case_id") + ": " + gpu);
            assertTrue(r.stringOr("batch", "").isEmpty(), r.string("case_id") + ": saturation rows leave batch empty");
            assertEquals(r.integer("num_gpus"), r.integer("tp") * r.integer("pp")
                    * (r.stringOr("ep", "").isEmpty() || r.integer("tp") > 1 ? 1 : r.integer("ep")),
                    r.string("case_id"));
        }
        assertEquals(Map.of("l40s", 242, "a100-pcie-80g", 117, "rtx-pro-6000-bse", 159), byGpu);
        assertEquals(518, FILE.outcomes().size());
        FILE.assertEveryRowIsAScoredServingRun();
    }

    @Test
    void pipelineStagesAddThroughputAsTheRunsShow() {
        // Measured per-GPU throughput stays within a factor of 2.5 from PP 1 to PP 8 (Llama 3.3 70B, v1.0: 3,264 ->
        // 1,485 at 128/128); a model that ran one micro-batch at a time would lose a factor of pp.
        List<CaseOutcome> pipelined = FILE.outcomes().stream()
                .filter(o -> pp(o.caseId()) > 1).toList();
        assertTrue(pipelined.size() >= 80, "pipeline rows " + pipelined.size());
        double sum = 0;
        for (CaseOutcome o : pipelined) {
            sum += Math.abs(o.errorPct());
        }
        double mean = sum / pipelined.size();
        assertTrue(mean < 30, "pipeline rows mean |error| " + mean);
    }

    private static int pp(String caseId) {
        for (CsvTable.Row r : FILE.rows()) {
            if (r.string("case_id").equals(caseId)) {
                return (int) r.integer("pp");
            }
        }
        throw new IllegalArgumentException(caseId);
    }
}
