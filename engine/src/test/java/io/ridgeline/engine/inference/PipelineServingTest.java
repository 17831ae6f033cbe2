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
 * Pipeline parallelism in continuous batching: the runtime keeps one micro-batch per stage in flight (TensorRT-LLM
 * PyExecutor {@code num_micro_batches = pp_size}, {@code get_max_num_sequences} = pp x max_batch_size), so the stages
 * work at once and a replica of pp stages serves about pp times the requests of one stage at about the same step
 * time, not one micro-batch at a time.
 */
class PipelineServingTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final ModelSpec L70 = ModelCatalog.bundled().model("llama3.1-70b");
    static final ServingBehaviour V10 = StackCatalog.bundled().profile("trt-llm@1.0").serving();
    static final SystemSpec RTX = SystemSpec.of(HW.chip("rtx-pro-6000-bse"), 8,
            HW.defaultNetwork(HW.chip("rtx-pro-6000-bse")));

    static InferencePlan fp4(int pp, ServingBehaviour runtime) {
        return new InferencePlan(1, pp, 1, 1, Precision.FP4, Precision.FP4, Precision.FP8, true, true, runtime);
    }

    static InferenceResult run(int pp, ServingBehaviour runtime, InferenceWorkload w) {
        return new InferenceStep().evaluate(L70, RTX, fp4(pp, runtime), w);
    }

    @Test
    void stagesWorkAtOnceSoPerGpuThroughputHoldsAsStagesAreAdded() {
        InferenceWorkload w = InferenceWorkload.saturated(1000, 1000);
        InferenceResult one = run(1, V10, w);
        InferenceResult two = run(2, V10, w);
        InferenceResult four = run(4, V10, w);
        // Measured on RTX PRO 6000 (perf-overview v1.0, 1000/1000): 1,787 / 1,853.5 / 1,490 tokens/s per GPU at PP
        // 1 / 2 / 4. Serving one micro-batch at a time would halve the per-GPU rate with each doubling of stages.
        double r2 = two.outputTokensPerSecondPerGpu() / one.outputTokensPerSecondPerGpu();
        double r4 = four.outputTokensPerSecondPerGpu() / one.outputTokensPerSecondPerGpu();
        assertTrue(r2 > 0.8, "pp 2 / pp 1 per GPU " + r2);
        assertTrue(r4 > 0.6, "pp 4 / pp 1 per GPU " + r4);
        // A request still passes every stage for each token: the inter-token time does not shrink with the stages.
        assertTrue(two.tpotSeconds() > 0.5 * one.tpotSeconds(), two.tpotSeconds() + " vs " + one.tpotSeconds());
    }

    @Test
    void theMaxBatchHoldsPerMicroBatch() {
        // A runtime capped at 8 sequences runs 8 per micro-batch: 16 in flight on two stages.
        ServingBehaviour small = V10.withLimits(8, V10.maxTokensPerStep(), V10.chunkedPrefill());
        InferenceWorkload w = InferenceWorkload.saturated(128, 2048);
        assertEquals(8, run(1, small, w).concurrency(), 1e-9);
        assertEquals(16, run(2, small, w).concurrency(), 1e-9);
    }

    @Test
    void oneRequestGainsNothingFromStages() {
        // A single client's request is one micro-batch: nothing else fills the other stages.
        InferenceWorkload w = InferenceWorkload.online(1, 1000, 1000);
        InferenceResult one = run(1, V10, w);
        InferenceResult two = run(2, V10, w);
        double perReplica1 = one.outputTokensPerSecondPerGpu();
        double perReplica2 = 2 * two.outputTokensPerSecondPerGpu();
        assertTrue(perReplica2 < 1.1 * perReplica1, perReplica2 + " vs " + perReplica1);
    }

    @Test
    void aMicroBatchWaitsForItsTokensOnTheHostBeforeItsNextStep() {
        // The same decode step of 1,024 sequences per micro-batch, with and without the host's per-request work
        // (14.5 us each on trt-llm@1.0): on two stages the work per iteration is far shorter than the GPU's cycle,
        // so an overlapped loop would hide it, but each micro-batch's sampled tokens must be back on the host and its
        // next step scheduled before it runs again (PyExecutor._executor_loop_pp), so the cycle grows by it.
        Replica two = new Replica(L70, RTX, fp4(2, V10), HW);
        MixedStep step = new MixedStep(two);
        Breakdown acc = new Breakdown();
        double idle = step.seconds(1024, 500, 0, 0, 0, 0, 2, acc, 0);
        double busy = step.seconds(1024, 500, 0, 0, 0, 1024, 2, acc, 0);
        double hostPerIteration = two.fixed.hostSecondsPerStep(1024, 0) - two.fixed.hostSecondsPerStep(0, 0);
        assertTrue(2 * hostPerIteration < idle, "the host work fits inside the cycle");
        assertTrue(busy > idle + 0.5 * hostPerIteration, busy + " vs " + idle + " + " + hostPerIteration);
        assertTrue(busy <= idle + hostPerIteration + 1e-12, busy + " vs " + idle + " + " + hostPerIteration);
        // Without stages the overlap scheduler hides the same work behind the step.
        Replica one = new Replica(L70, RTX, fp4(1, V10), HW);
        MixedStep single = new MixedStep(one);
        assertEquals(single.seconds(1024, 500, 0, 0, 0, 0, 1, acc, 0),
                single.seconds(1024, 500, 0, 0, 0, 1024, 1, acc, 0), 1e-12);
    }
}
