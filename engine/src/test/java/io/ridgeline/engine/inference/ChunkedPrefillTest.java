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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Continuous batching at a fixed client concurrency (NIM/AIPerf and vLLM benchmark tables): a chunked-prefill scheduler
 * packs a prompt into as few steps as its token budget allows, and one client is a feasible load.
 */
class ChunkedPrefillTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final ModelSpec L70 = ModelCatalog.bundled().model("llama3.1-70b");
    static final SystemSpec H100X2 = SystemSpec.of(HW.chip("h100-sxm"), 2, HW.defaultNetwork(HW.chip("h100-sxm")));

    static InferencePlan fp8Tp2(String stack) {
        ServingBehaviour runtime = StackCatalog.bundled().profile(stack).serving();
        return InferencePlan.tensorParallel(2).withPrecisions(Precision.FP8, Precision.FP8, Precision.FP8)
                .withRuntime(runtime);
    }

    /** The time to prefill one whole prompt in one step, alone: a static batch of one on the same plan. */
    static double wholePromptSeconds(InferencePlan plan, int inputTokens) {
        return new InferenceStep().evaluate(L70, H100X2, plan, InferenceWorkload.staticBatch(1, inputTokens, 2))
                .prefillSeconds();
    }

    @Test
    void oneClientsPromptThatFitsTheBudgetIsPrefilledInOneStep() {
        // NIM 1.x's TensorRT engine chunks context (the catalogue's max_num_tokens 32768; NIM does not build with
        // trtllm-bench's heuristic): a 5,000-token prompt fits beside one decode, so the scheduler runs it whole.
        // Spreading it over the 499 decode steps of the request before it put the TTFT at 11.3 s on 2 x H100 (NIM 1.8
        // measures 0.41 s for Llama 3.3 70B fp8 TP2, 5000/500, one client).
        InferencePlan plan = fp8Tp2("nim@1.0");
        assertTrue(plan.runtime().chunkedPrefill());
        assertTrue(!plan.runtime().benchBuildLimits() && plan.runtime().maxTokensPerStep() > 5000);
        InferenceResult r = new InferenceStep().evaluate(L70, H100X2, plan, InferenceWorkload.online(1, 5000, 500));
        assertTrue(r.feasible(), r.detail());
        double whole = wholePromptSeconds(plan, 5000);
        double frontEnd = plan.runtime().requestSeconds();
        // From arrival: the front end, then the step carrying the whole prompt (a prompt step, no faster); one client
        // finds the runtime idle.
        assertTrue(r.ttftSeconds() >= whole + frontEnd, r.ttftSeconds() + " s vs a whole-prompt step of " + whole);
        assertTrue(r.ttftSeconds() <= whole + frontEnd + r.tpotSeconds(),
                r.ttftSeconds() + " s vs " + whole + " s + a step");
    }

    @Test
    void trtllmBenchsEngineForLongPromptsChunksThemAtItsBuildBudget() {
        // trtllm-bench 0.14 builds the 70B fp8 TP2 engine for 5000/500 with the heuristic's ~100 requests x (1 + 10)
        // tokens -> max_num_tokens 2048 (tuning.py finetune_setting minimum): a 5,000-token prompt takes 3 chunks.
        InferencePlan plan = fp8Tp2("trt-llm@0.14.0");
        assertTrue(plan.runtime().benchBuildLimits());
        BenchBuildLimits b = new BenchBuildLimits();
        b.size(L70, 2, 1, HW.chip("h100-sxm").memoryBytes(), 1, 1, 5000, 500);
        assertEquals(2048, b.maxTokens);
        InferenceResult r = new InferenceStep().evaluate(L70, H100X2, plan, InferenceWorkload.online(1, 5000, 500));
        double whole = wholePromptSeconds(plan, 5000);
        // Three chunk steps re-read the weights three times: longer than one whole-prompt step.
        assertTrue(r.ttftSeconds() > whole, r.ttftSeconds() + " s vs " + whole + " s");
        assertTrue(r.ttftSeconds() < 1.5 * whole, r.ttftSeconds() + " s vs " + whole + " s");
    }

    @Test
    void aPromptLongerThanTheBudgetTakesAsManyStepsAsItsChunks() {
        // vLLM's budget is 8,192 tokens per step: a 20,000-token prompt runs in ceil(20000 / (8192 - d)) = 3 chunks.
        InferencePlan plan = fp8Tp2("vllm");
        assertEquals(8192, plan.runtime().maxTokensPerStep());
        InferenceResult r = new InferenceStep().evaluate(L70, H100X2, plan, InferenceWorkload.online(1, 20000, 200));
        assertTrue(r.feasible(), r.detail());
        double whole = wholePromptSeconds(plan, 20000);
        // Three steps of ~6,700 prompt tokens do the whole prompt's work and re-read the weights three times.
        assertTrue(r.ttftSeconds() > whole, r.ttftSeconds() + " s vs " + whole + " s");
        assertTrue(r.ttftSeconds() < 1.5 * whole, r.ttftSeconds() + " s vs " + whole + " s");
    }

    @Test
    void oneClientWithFrontEndTimeIsFeasibleWithUnderOneRequestInFlight() {
        // vLLM's OpenAI server spends request_overhead_ms outside the engine, so one closed-loop client keeps fewer
        // than one request in the engine on average. That is a light load, not a memory overflow (it was reported
        // as "needs 35.5 GiB but has 80.0 GiB").
        InferencePlan plan = fp8Tp2("vllm");
        assertTrue(plan.runtime().requestSeconds() > 0);
        InferenceResult r = new InferenceStep().evaluate(L70, H100X2, plan, InferenceWorkload.online(1, 5000, 500));
        assertTrue(r.feasible(), r.detail());
        assertTrue(r.concurrency() < 1 && r.concurrency() > 0.5, "in flight " + r.concurrency());
        assertTrue(r.outputTokensPerSecondPerGpu() > 0);
    }
}
