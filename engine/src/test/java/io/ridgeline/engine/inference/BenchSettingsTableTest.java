package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * trtllm-bench 0.12-0.14 builds a model its settings table lists with the table's limits (build.py
 * get_benchmark_engine_settings: {@code configs[model][tp_pp].get(max_seq_len) or .get("general")}), whatever memory is
 * left; 0.15 onward sizes them with its heuristic.
 */
class BenchSettingsTableTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final StackCatalog STACKS = StackCatalog.bundled();
    static final ModelSpec MIXTRAL = ModelCatalog.bundled().model("mixtral-8x7b");
    static final ModelSpec LLAMA2_70B = ModelCatalog.bundled().model("llama2-70b");
    static final SystemSpec H200 = SystemSpec.of(HW.chip("h200"), 8, HW.defaultNetwork(HW.chip("h200")));

    static InferenceResult run(ModelSpec m, int tp, String stack, int in, int out) {
        ServingBehaviour runtime = STACKS.profile(stack).serving();
        InferencePlan plan = InferencePlan.tensorParallel(tp).withPrecisions(Precision.FP8, Precision.FP8, Precision.FP8)
                .withRuntime(runtime);
        return new InferenceStep().evaluate(m, H200, plan, InferenceWorkload.saturated(in, out));
    }

    @Test
    void aLengthOfItsOwnBeatsTheGeneralEntryAndUnlistedLayoutsHaveNone() {
        BenchSettingsTable.Entry[] llama = BenchSettingsTable.entriesFor(LLAMA2_70B);
        // meta-llama/Llama-2-70b-hf tp4_pp1: 4224 -> 256 / 8192, general 4096 / 8192.
        assertEquals(256, BenchSettingsTable.lookup(llama, 4, 1, 128 + 4096).maxBatch());
        assertEquals(4096, BenchSettingsTable.lookup(llama, 4, 1, 1000 + 1000).maxBatch());
        assertEquals(8192, BenchSettingsTable.lookup(llama, 4, 1, 1000 + 1000).maxTokens());
        assertNull(BenchSettingsTable.lookup(llama, 1, 1, 2000), "no tp1_pp1 entry for Llama 2 70B");
        assertEquals(0, BenchSettingsTable.entriesFor(ModelCatalog.bundled().model("qwen3-30b-a3b")).length);
    }

    @Test
    void theTableEraRunsTheTablesLimitsWhateverMemoryIsLeft() {
        assertTrue(STACKS.profile("trt-llm@0.14.0").serving().benchSettingsTable());
        assertFalse(STACKS.profile("trt-llm@0.15").serving().benchSettingsTable());
        // Mixtral 8x7B tp2_pp1 general: max_batch_size 2048, max_num_tokens 3072. On a 141 GB H200 the KV cache holds
        // far more requests of 128 + 128 tokens; the table's 3,072 tokens a step, each request's decode plus its share
        // of a 128-token prompt (1 + 128 / 127 tokens), cap the batch at 3,072 / (1 + 128 / 127) x 128 / 127 = 1,542.
        InferenceResult table = run(MIXTRAL, 2, "trt-llm@0.14.0", 128, 128);
        assertEquals(1542, table.maxBatch());
        // The heuristic era on the same GPUs sizes the budget from its KV estimate (up to 32,768 tokens).
        InferenceResult heuristic = run(MIXTRAL, 2, "trt-llm@0.15", 128, 128);
        assertTrue(heuristic.maxBatch() > 2048, "heuristic max batch " + heuristic.maxBatch());
        // A prompt-heavy run is held to 3,072 tokens a step: fewer prompts per step than the heuristic's budget.
        InferenceResult prefill = run(MIXTRAL, 2, "trt-llm@0.14.0", 2048, 128);
        InferenceResult prefillHeuristic = run(MIXTRAL, 2, "trt-llm@0.15", 2048, 128);
        assertTrue(prefill.outputTokensPerSecondPerGpu() < prefillHeuristic.outputTokensPerSecondPerGpu(),
                prefill.outputTokensPerSecondPerGpu() + " vs " + prefillHeuristic.outputTokensPerSecondPerGpu());
    }
}
