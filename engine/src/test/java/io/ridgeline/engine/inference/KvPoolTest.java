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
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How much memory the runtime leaves for the KV pool and how many requests it lets run (docs/INFERENCE.md, "KV-pool
 * capacity"): the activation memory reserved for the most tokens a step may carry, trtllm-bench's build limits for
 * a dataset, and the TensorRT executor's dynamic batch-size table.
 */
class KvPoolTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final StackCatalog STACKS = StackCatalog.bundled();
    static final ServingBehaviour V014 = STACKS.profile("trt-llm@0.14.0").serving();
    static final ServingBehaviour V015 = STACKS.profile("trt-llm@0.15").serving();
    static final ServingBehaviour V017 = STACKS.profile("trt-llm@0.17").serving();
    static final ModelSpec L70 = ModelCatalog.bundled().model("llama3.1-70b");
    static final ModelSpec L8 = ModelCatalog.bundled().model("llama3.1-8b");
    static final SystemSpec H100 = SystemSpec.of(HW.chip("h100-sxm"), 8, HW.defaultNetwork(HW.chip("h100-sxm")));
    static final double GIB = 1024.0 * 1024 * 1024;

    static InferencePlan fp8(int tp, ServingBehaviour runtime) {
        return InferencePlan.tensorParallel(tp).withPrecisions(Precision.FP8, Precision.FP8, Precision.FP8)
                .withRuntime(runtime);
    }

    @Test
    void theTunerSnapsTheRuntimeBatchToItsTable() {
        // DynamicBatchConfig::kDefaultBatchSizeTable: the first limit above the capacity gives the batch.
        assertEquals(128, BatchSizeTuner.runtimeBatchSize(30));
        assertEquals(128, BatchSizeTuner.runtimeBatchSize(143));
        assertEquals(256, BatchSizeTuner.runtimeBatchSize(144));
        assertEquals(256, BatchSizeTuner.runtimeBatchSize(300));
        assertEquals(512, BatchSizeTuner.runtimeBatchSize(600));
        assertEquals(768, BatchSizeTuner.runtimeBatchSize(800));
        assertEquals(1024, BatchSizeTuner.runtimeBatchSize(1200));
        assertEquals(1536, BatchSizeTuner.runtimeBatchSize(1600));
        // Above the table: down to a multiple of 512 only within 128 of it.
        assertEquals(1700, BatchSizeTuner.runtimeBatchSize(1700));
        assertEquals(2048, BatchSizeTuner.runtimeBatchSize(2100));
        assertEquals(2200, BatchSizeTuner.runtimeBatchSize(2200));
    }

    @Test
    void aTunedExecutorRunsNoMoreThanTheTableBatch() {
        // Llama 3.1 8B fp8 on one H100 at 128/4096: the pool holds ~260 requests, in the table's 256 band
        // [144, 336); the tuner caps the runtime batch at 256.
        InferenceWorkload w = InferenceWorkload.saturated(128, 4096);
        double free = new InferenceStep().evaluate(L8, H100, fp8(1, withTuning(V017, false)), w).concurrency();
        double tuned = new InferenceStep().evaluate(L8, H100, fp8(1, V017), w).concurrency();
        assertTrue(free > 256 && free < 336, "pool capacity " + free);
        assertEquals(256, tuned, 1e-9);
        // Llama 3.1 70B fp8 TP8 at 1000/1000: ~1,700 requests, above the table and not within 128 of 1,536:
        // untouched.
        InferenceWorkload w2 = InferenceWorkload.saturated(1000, 1000);
        double free8 = new InferenceStep().evaluate(L70, H100, fp8(8, withTuning(V017, false)), w2).concurrency();
        double tuned8 = new InferenceStep().evaluate(L70, H100, fp8(8, V017), w2).concurrency();
        assertTrue(free8 >= 1664 && free8 < 2048, "pool capacity " + free8);
        assertEquals(free8, tuned8, 1e-9);
        // 0.14's benchmark passes no dynamic batch config: the pool decides.
        assertFalse(V014.batchSizeTuning());
        assertTrue(V017.batchSizeTuning());
    }

    @Test
    void theBenchHeuristicRoundsItsOwnKvEstimateUp() {
        BenchBuildLimits b = new BenchBuildLimits();
        // 8B fp8 TP1 on 80 GiB at 128/128: (80 - 8.03 GB) x 0.95 / (2 x 32 x 8 x 128 B / GiB) / 256 > 4096 requests:
        // the 4,096 cap, and 4,096 x 2 = 8,192 tokens.
        b.size(L8, 1, 1, 80 * GIB, 1, 1, 128, 128);
        assertTrue(b.estimatedRequests > 4096, "estimate " + b.estimatedRequests);
        assertEquals(4096, b.maxBatch);
        assertEquals(8192, b.maxTokens);
        // 70B fp8 TP1 at 1000/1000: ~27 requests -> at least 64, and at least 2,048 tokens.
        b.size(L70, 1, 1, 80 * GIB, 1, 1, 1000, 1000);
        double expected = (80 - L70.totalParams() / 1e9) * 0.95 / (2.0 * 80 * 8 * 128 / GIB) / 2000;
        assertEquals(expected, b.estimatedRequests, 1e-9);
        assertEquals(64, b.maxBatch);
        assertEquals(2048, b.maxTokens);
        // 70B fp8 TP1 at 128/128: ~230 requests -> 32 x ceil(/32) = 256 (below 256: 32-step rounding).
        b.size(L70, 1, 1, 80 * GIB, 1, 1, 128, 128);
        assertEquals(32 * Math.ceil(b.estimatedRequests / 32), b.maxBatch, 1e-9);
        assertTrue(b.maxBatch < 300);
    }

    @Test
    void benchLimitsCapTheBatchTheEngineWasBuiltFor() {
        // 70B fp8 TP1 at 128/128 on 0.15 (its 1 GiB reserve): the runtime pool (0.95 of what is free) holds more
        // requests than the script's estimate rounded up; the engine's max_batch_size binds.
        InferenceWorkload w = InferenceWorkload.saturated(128, 128);
        double built = new InferenceStep().evaluate(L70, H100, fp8(1, V015), w).concurrency();
        BenchBuildLimits b = new BenchBuildLimits();
        b.size(L70, 1, 1, H100.chip().memoryBytes(), 1, 1, 128, 128);
        // The same engine's token budget without the batch limit: the pool alone.
        ServingBehaviour poolOnly = withBenchLimits(V015, false).withLimits(V015.maxBatch(), b.maxTokens, true);
        double unbuilt = new InferenceStep().evaluate(L70, H100, fp8(1, poolOnly), w).concurrency();
        assertEquals(b.maxBatch, built, 1e-9);
        assertTrue(unbuilt > built, unbuilt + " vs " + built);
    }

    @Test
    void theActivationReserveIsForTheMostTokensAStepMayCarry() {
        // The pool is the fraction of what is left after weights, reserve and activations for max tokens per step:
        // 24,576 more tokens of budget take fraction x 24,576 x activation bytes per token from the pool.
        ServingBehaviour small = withBenchLimits(V014, false).withLimits(4096, 8192, true);
        ServingBehaviour large = withBenchLimits(V014, false).withLimits(4096, 32768, true);
        InferenceWorkload w = InferenceWorkload.saturated(1000, 1000);
        InferenceResult a = new InferenceStep().evaluate(L70, H100, fp8(2, small), w);
        InferenceResult b = new InferenceStep().evaluate(L70, H100, fp8(2, large), w);
        double perToken = new InferenceMemory(L70, fp8(2, small), H100.chip().memoryBytes()).activationBytes(1, 1)
                - new InferenceMemory(L70, fp8(2, small), H100.chip().memoryBytes()).activationBytes(1, 0);
        assertEquals(8192 * perToken, a.activationBytes(), 1e-6 * a.activationBytes());
        assertEquals(32768 * perToken, b.activationBytes(), 1e-6 * b.activationBytes());
        assertEquals(V014.kvMemoryFraction() * 24576 * perToken, a.kvCacheBytes() - b.kvCacheBytes(),
                1e-6 * a.kvCacheBytes());
        assertTrue(b.concurrency() < a.concurrency());
    }

    @Test
    void theRuntimeReserveComesOutOfWhatIsFreeBeforeTheFraction() {
        // kv_memory_fraction is a share of the memory free after the engine is loaded (free_after_load): the settings-
        // table era's larger reserve (trt-llm@0.14.0, fitted) leaves fraction x the difference less KV pool than the
        // heuristic era's (trt-llm@0.15, 1 GiB), here where the pool binds (70B fp8 on one H100 at 2048/2048).
        ServingBehaviour table = withBenchLimits(V014, false);
        ServingBehaviour small = withReserve(table, V015.runtimeReserveBytes());
        InferenceWorkload w = InferenceWorkload.saturated(2048, 2048);
        InferenceResult a = new InferenceStep().evaluate(L70, H100, fp8(1, table), w);
        InferenceResult b = new InferenceStep().evaluate(L70, H100, fp8(1, small), w);
        assertTrue(V014.runtimeReserveBytes() > 2 * V015.runtimeReserveBytes());
        assertEquals(V014.kvMemoryFraction() * (V014.runtimeReserveBytes() - V015.runtimeReserveBytes()),
                b.kvCacheBytes() - a.kvCacheBytes(), 1e-6 * b.kvCacheBytes());
        assertTrue(a.concurrency() < b.concurrency(), a.concurrency() + " vs " + b.concurrency());
    }

    private static ServingBehaviour withReserve(ServingBehaviour s, double reserveBytes) {
        return copy(s, reserveBytes, s.benchBuildLimits(), s.batchSizeTuning());
    }

    private static ServingBehaviour withTuning(ServingBehaviour s, boolean on) {
        return with(s, s.benchBuildLimits(), on);
    }

    private static ServingBehaviour withBenchLimits(ServingBehaviour s, boolean on) {
        return with(s, on, s.batchSizeTuning());
    }

    private static ServingBehaviour with(ServingBehaviour s, boolean benchLimits, boolean tuning) {
        return copy(s, s.runtimeReserveBytes(), benchLimits, tuning);
    }

    private static ServingBehaviour copy(ServingBehaviour s, double reserveBytes, boolean benchLimits, boolean tuning) {
        return new ServingBehaviour(s.continuousBatching(), s.attention(), s.cudaGraphs(), s.cudaGraphsMixedSteps(),
                s.hostSecondsPerStep(), s.overlapScheduler(), s.requestSeconds(), s.kvMemoryFraction(),
                s.kvMemoryBasis(), s.kvAdmission(), s.kvBlockTokens(), s.maxBatch(), s.maxTokensPerStep(),
                s.chunkedPrefill(), reserveBytes, s.fp8KvWithQuantizedWeights(), s.decodeAttention(),
                s.fp8ContextAttention(), s.quantizedMoe(), s.hostSecondsPerRequest(), s.moeAttentionDp(),
                s.identicalPrompts(), s.benchmarkRequests(), s.mxfp4MoeW4a16(), benchLimits, tuning,
                s.eagerHostSecondsPerKernel(), s.allReduceSelection(), s.benchSettingsTable());
    }
}
