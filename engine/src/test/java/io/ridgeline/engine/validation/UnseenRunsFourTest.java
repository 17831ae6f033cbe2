package io.ridgeline.engine.validation;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.software.LowPrecisionRecipe;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.CsvTable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * validation/cases-dev-4.csv (validation/cases-dev-4.md): llm-foundry's H100 tables and NeMo 25.02/25.04 pre-training
 * rows, runs the engine was not built on. Every row parses, is scored (a run that ran is never infeasible) with the
 * profile its framework names, and the llm-foundry H100 group stays within issue 9's 10% for the A100 rows.
 */
class UnseenRunsFourTest {
    private static List<CaseOutcome> outcomes;
    private static List<CsvTable.Row> rows;
    private static ScoredCaseFile scored;

    @BeforeAll
    static void score() {
        scored = ScoredCaseFile.score("cases-dev-4.csv");
        rows = scored.rows();
        outcomes = scored.outcomes();
    }

    private static List<CaseOutcome> group(String framework) {
        return scored.group(framework);
    }

    @Test
    void everyRowIsATrainingRunScoredAndNoneIsCalledInfeasible() {
        assertEquals(94, outcomes.size());
        assertEquals(77, group("llm-foundry").size());
        assertEquals(9, group("nemo@25.02").size());
        assertEquals(8, group("nemo@25.04").size());
        for (CaseOutcome o : outcomes) {
            assertEquals("training", o.phase(), o.caseId());
            assertEquals("ok", o.status(), o.caseId() + ": " + o.reason());
        }
    }

    @Test
    void everyFrameworkFindsItsOwnProfileNotAFallback() {
        CaseMapper mapper = new CaseMapper(HardwareCatalog.bundled());
        for (CsvTable.Row r : rows) {
            StackCatalog.Resolution res = mapper.stack(r);
            assertTrue(res.exact(), r.string("case_id") + ": " + res.describe());
            assertEquals(r.string("framework"), res.profile().id());
        }
    }

    @Test
    void nemoTwoPointZeroProfilesStateWhatChangedSinceTwentyFourSeven() {
        StackCatalog stacks = StackCatalog.bundled();
        var v2407 = stacks.profile("nemo@24.07").training();
        var v2502 = stacks.profile("nemo@25.02").training();
        var v2504 = stacks.profile("nemo@25.04").training();
        // Megatron-core DistributedOptimizer (fp32 master, m, v) instead of Apex's bf16 weight + int16 remainders.
        assertEquals(10, v2407.optimizerBytes());
        assertEquals(12, v2502.optimizerBytes());
        assertEquals(LowPrecisionRecipe.DELAYED, v2502.lowPrecisionRecipe());
        // The 25.04 table: per-tensor current scaling.
        assertEquals(LowPrecisionRecipe.CURRENT, v2504.lowPrecisionRecipe());
        assertEquals(12, v2504.optimizerBytes());
        // A container between the two catalogued ones runs the older recipes.
        StackCatalog.Resolution between = stacks.resolve("nemo@25.03", "framework");
        assertFalse(between.exact());
        assertEquals("nemo@25.02", between.profile().id());
    }

    /**
     * The large-scale table runs MPT-7B (FULL_SHARD, no checkpointing) on 128, 256 and 512 H100 and loses 7.7% per GPU
     * from 128 to 512; the engine must lose throughput too (NCCL's flat-ring all-gather/reduce-scatter latency,
     * CollectiveModel), not predict it flat as it did (0.2%).
     */
    @Test
    void fsdpThroughputPerGpuFallsAsTheGroupGrows() {
        Map<Integer, Double> predicted = new HashMap<>();
        for (CsvTable.Row r : rows) {
            if (r.string("model").equals("MPT-7b") && r.string("seq_len").equals("2048")
                    && r.integer("num_gpus") >= 128) {
                CaseOutcome o = outcomes.stream().filter(x -> x.caseId().equals(r.string("case_id"))).findFirst()
                        .orElseThrow();
                predicted.put((int) r.integer("num_gpus"), o.predicted());
            }
        }
        assertEquals(3, predicted.size(), "" + predicted);
        assertTrue(predicted.get(256) < predicted.get(128) && predicted.get(512) < predicted.get(256), "" + predicted);
        assertTrue(predicted.get(512) < 0.97 * predicted.get(128), "" + predicted);
    }

    @Test
    void llmFoundryOnH100WithinTenPercent() {
        ValidationSummary.Group s = ValidationSummary.stats("llm-foundry", group("llm-foundry"));
        assertEquals(77, s.count());
        assertTrue(s.meanAbsErrorPct() <= 10.0, "mean " + s.meanAbsErrorPct());
    }
}
