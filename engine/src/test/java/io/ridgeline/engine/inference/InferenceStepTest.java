package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.evaluation.Bottleneck;
import io.ridgeline.engine.evaluation.Infeasibility;
import io.ridgeline.engine.workload.MlpType;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InferenceStepTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final ModelSpec L7 = ModelCatalog.bundled().model("llama2-7b");
    static final ModelSpec L70 = ModelCatalog.bundled().model("llama2-70b");
    static final Chip A100 = HW.chip("a100-80g");
    static final Chip H100 = HW.chip("h100-sxm");

    static SystemSpec node(Chip chip) {
        return SystemSpec.of(chip, 8, HW.defaultNetwork(chip));
    }

    static InferenceResult eval(ModelSpec m, Chip chip, InferencePlan p, InferenceWorkload w) {
        return new InferenceStep().evaluate(m, node(chip), p, w);
    }

    // ---- formulas

    @Test
    void kvCacheBytesFollowTheFormula() {
        // 2 * layers * kv_heads * head_dim * context * batch * bytes: Llama-2-7B = 0.5 MiB per token in 16-bit.
        assertEquals(2.0 * 32 * 32 * 128 * 2, KvCache.bytesPerTokenPerLayer(L7, 1, 2) * 32, 0);
        assertEquals(2.0 * 32 * 32 * 128 * 4096 * 3 * 2, KvCache.bytesPerGpu(L7, 1, 32, 4096, 3, 2), 0);
        // Divided by TP.
        assertEquals(KvCache.bytesPerGpu(L7, 1, 32, 1000, 1, 2) / 4, KvCache.bytesPerGpu(L7, 4, 32, 1000, 1, 2), 0);
        // fp8 halves it.
        assertEquals(KvCache.bytesPerGpu(L7, 1, 32, 1000, 1, 2) / 2, KvCache.bytesPerGpu(L7, 1, 32, 1000, 1, 1), 0);
        // GQA: Llama-2-70B has 8 KV heads: at TP8 one head per rank; at TP16 heads are replicated, still one.
        assertEquals(2.0 * 1 * 128 * 2, KvCache.bytesPerTokenPerLayer(L70, 8, 2), 0);
        assertEquals(2.0 * 1 * 128 * 2, KvCache.bytesPerTokenPerLayer(L70, 16, 2), 0);
    }

    @Test
    void resultReportsKvCacheAtFullContext() {
        InferenceResult r = eval(L7, A100, InferencePlan.tensorParallel(2), InferenceWorkload.staticBatch(4, 300, 100));
        assertEquals(2.0 * 32 * 32 * 128 * 400 * 4 * 2 / 2, r.kvCacheBytes(), 1e-6);
    }

    @Test
    void prefillActivationsHoldTheMlpIntermediateOfItsShape() {
        // Per token: residual and normed copy (2h), local QKV, and the local up-projection output: gate and up (2 ffn)
        // of SwiGLU, up alone (1 ffn) of GeLU, 16-bit; plus fp32 logits per sequence.
        InferenceMemory swiglu = new InferenceMemory(L7, InferencePlan.tensorParallel(1), A100.memoryBytes());
        assertEquals(2.0 * (2 * 4096 + 3 * 4096 + 2 * 11008) + 4.0 * 32000, swiglu.activationBytes(1, 1), 1e-6);
        ModelSpec gpt3 = ModelCatalog.bundled().model("gpt3-175b");
        assertEquals(MlpType.GELU, gpt3.mlp());
        InferenceMemory gelu = new InferenceMemory(gpt3, InferencePlan.tensorParallel(8), A100.memoryBytes());
        double qkvPerRank = 3.0 * 12288 / 8;
        assertEquals(2.0 * (2 * 12288 + qkvPerRank + 49152 / 8) + 4.0 * 50257 / 8, gelu.activationBytes(1, 1), 1e-6);
    }

    @Test
    void weightBytesPerGpuAreParametersOverTp() {
        InferenceMemory m1 = new InferenceMemory(L7, InferencePlan.tensorParallel(1), A100.memoryBytes());
        assertEquals(L7.totalParams() * 2, m1.weightBytes(), 1e-6 * m1.weightBytes());
        InferenceMemory m8 = new InferenceMemory(L7, InferencePlan.tensorParallel(8), A100.memoryBytes());
        // Only the norms are replicated: within 0.1% of total / 8.
        assertEquals(L7.totalParams() * 2 / 8, m8.weightBytes(), 1e-3 * m8.weightBytes());
    }

    @Test
    void decodeStepGrowsByKvBytesOverBandwidth() {
        Replica r = new Replica(L7, node(A100), InferencePlan.tensorParallel(2), HW);
        DecodeTime d = new DecodeTime(r);
        Breakdown acc = new Breakdown();
        double batch = 8;
        double dt = d.stepSeconds(batch, 2000, acc, 0) - d.stepSeconds(batch, 1000, acc, 0);
        double kvBytes = batch * 1000 * 2 * 32 * (32 / 2) * 128 * 2.0;
        assertEquals(kvBytes / A100.effectiveMemoryBytesPerSecond(), dt, 1e-9 * dt + 1e-12);
    }

    @Test
    void decodeStepReadsEveryLocalWeightOnce() {
        // Halving the weight bytes (bf16 -> fp8 weights, bf16 math) saves exactly the layers' weight bytes / 2 / BW at
        // batch 1, where decode GEMMs are bandwidth-bound.
        InferencePlan bf16 = InferencePlan.tensorParallel(1);
        InferencePlan fp8 = bf16.withPrecisions(Precision.FP8, Precision.BF16, Precision.BF16);
        DecodeTime d16 = new DecodeTime(new Replica(L7, node(A100), bf16, HW));
        DecodeTime d8 = new DecodeTime(new Replica(L7, node(A100), fp8, HW));
        Breakdown acc = new Breakdown();
        double saved = d16.stepSeconds(1, 500, acc, 0) - d8.stepSeconds(1, 500, acc, 0);
        // Read per step: every layer's weights; the LM head stays 16-bit (quantization recipes leave lm_head alone)
        // and the input embedding is gathered, not read.
        double readParams = 32 * (L7.attentionParamsPerLayer() + L7.mlpParamsPerLayer());
        double expected = readParams * 1.0 / A100.effectiveMemoryBytesPerSecond();
        assertEquals(expected, saved, 0.01 * expected);
    }

    @Test
    void batchOneDecodeOfLlama7bOnA100IsNearTheMeasuredElevenMilliseconds() {
        // MODEL.md sec. 7: ~10.9 ms per token measured vs 6.6 ms from datasheet bandwidth alone.
        InferenceResult r = eval(L7, A100, InferencePlan.tensorParallel(1), InferenceWorkload.staticBatch(1, 200, 200));
        assertEquals(10.9e-3, r.tpotSeconds(), 0.10 * 10.9e-3);
        assertTrue(r.tpotSeconds() > 13.5e9 / 2.039e12, "slower than weights / datasheet bandwidth");
    }

    // ---- properties

    @Test
    void moreHbmBandwidthIsNeverSlower() {
        for (int batch : new int[]{1, 16, 128}) {
            for (int tp : new int[]{1, 2, 8}) {
                InferencePlan p = InferencePlan.tensorParallel(tp);
                InferenceWorkload w = InferenceWorkload.staticBatch(batch, 512, 128);
                InferenceResult base = eval(L7, H100, p, w);
                Chip faster = H100.withMemory("HBM3e", H100.memoryBytes(), H100.memoryBytesPerSecond() * 1.5);
                InferenceResult fast = eval(L7, faster, p, w);
                assertTrue(fast.ttftSeconds() <= base.ttftSeconds(), "ttft b" + batch + " tp" + tp);
                assertTrue(fast.tpotSeconds() < base.tpotSeconds(), "tpot b" + batch + " tp" + tp);
                assertTrue(fast.e2eLatencySeconds() < base.e2eLatencySeconds(), "e2e b" + batch + " tp" + tp);
            }
        }
    }

    @Test
    void longerContextIsNeverFaster() {
        InferenceStep step = new InferenceStep();
        SystemSpec sys = node(A100);
        InferencePlan p = InferencePlan.tensorParallel(2);
        double lastTpot = 0;
        double lastTtft = 0;
        double lastE2e = 0;
        for (int in = 16; in <= 8192; in *= 2) {
            InferenceResult r = step.evaluate(L7, sys, p, InferenceWorkload.staticBatch(4, in, 64));
            assertTrue(r.tpotSeconds() > lastTpot, "tpot at " + in);
            assertTrue(r.ttftSeconds() > lastTtft, "ttft at " + in);
            assertTrue(r.e2eLatencySeconds() > lastE2e, "e2e at " + in);
            lastTpot = r.tpotSeconds();
            lastTtft = r.ttftSeconds();
            lastE2e = r.e2eLatencySeconds();
        }
        Replica rep = new Replica(L7, sys, p, HW);
        DecodeTime d = new DecodeTime(rep);
        Breakdown acc = new Breakdown();
        double last = 0;
        for (int ctx = 1; ctx <= 32768; ctx *= 2) {
            double t = d.stepSeconds(32, ctx, acc, 0);
            assertTrue(t > last, "decode step at context " + ctx);
            last = t;
        }
    }

    @Test
    void infeasibleWhenKvCacheExceedsMemory() {
        InferenceWorkload w = InferenceWorkload.staticBatch(1, 3000, 1000);
        InferencePlan p = InferencePlan.tensorParallel(2);
        InferenceResult one = eval(L70, A100, p, w);
        assertTrue(one.feasible());
        int max = one.maxBatch();
        assertTrue(max > 1 && max < 200, "max batch " + max);
        InferenceResult atMax = eval(L70, A100, p, w.withBatch(max));
        assertTrue(atMax.feasible(), atMax.detail());
        assertTrue(atMax.totalMemoryBytes() <= A100.memoryBytes());
        InferenceResult over = eval(L70, A100, p, w.withBatch(max + 1));
        assertFalse(over.feasible());
        assertEquals(Infeasibility.MEMORY_CAPACITY, over.infeasibility());
        assertEquals(Bottleneck.MEMORY_CAPACITY, over.bottleneck());
        assertTrue(over.detail().contains("KV cache") && over.detail().contains("GiB"), over.detail());
        assertTrue(over.totalMemoryBytes() > A100.memoryBytes());
    }

    @Test
    void seventyBillionWeightsDoNotFitOneGpu() {
        InferenceResult r = eval(L70, A100, InferencePlan.tensorParallel(1), InferenceWorkload.staticBatch(1, 128, 16));
        assertEquals(Infeasibility.MEMORY_CAPACITY, r.infeasibility());
        assertEquals(0, r.maxBatch());
        assertTrue(Double.isNaN(r.servingOutputTokensPerSecondPerGpu()));
    }

    @Test
    void fp8KvCacheNearlyDoublesTheMaxBatch() {
        InferenceWorkload w = InferenceWorkload.staticBatch(1, 2048, 2048);
        InferencePlan p = InferencePlan.tensorParallel(1);
        int bf16 = eval(L7, A100, p, w).maxBatch();
        int fp8 = eval(L7, A100, p.withPrecisions(Precision.BF16, Precision.BF16, Precision.FP8), w).maxBatch();
        // Not exactly 2x: each sequence also needs prefill activations and logits, which stay 16-bit / fp32.
        assertTrue(fp8 > 1.8 * bf16 && fp8 <= 2 * bf16 + 1, bf16 + " vs " + fp8);
    }

    @Test
    void cudaGraphsMakeBatchOneDecodeFaster() {
        InferencePlan p = InferencePlan.tensorParallel(4);
        InferenceWorkload w = InferenceWorkload.staticBatch(1, 128, 128);
        InferenceResult eager = eval(L7, H100, p, w);
        InferenceResult graphs = eval(L7, H100, p.withCudaGraphs(true), w);
        assertTrue(graphs.tpotSeconds() < 0.9 * eager.tpotSeconds());
    }

    @Test
    void tensorParallelSpeedupIsFarBelowLinearAtBatchOne() {
        InferenceWorkload w = InferenceWorkload.staticBatch(1, 200, 200);
        double tp1 = eval(L7, A100, InferencePlan.tensorParallel(1), w).e2eLatencySeconds();
        double tp8 = eval(L7, A100, InferencePlan.tensorParallel(8), w).e2eLatencySeconds();
        assertTrue(tp1 / tp8 > 1.5 && tp1 / tp8 < 2.5, "speed-up " + tp1 / tp8);
    }

    @Test
    void throughputGrowsWithBatchAndServingSaturatesAtMaxBatch() {
        InferencePlan p = InferencePlan.tensorParallel(1);
        double last = 0;
        for (int b = 1; b <= 64; b *= 2) {
            InferenceResult r = eval(L7, H100, p, InferenceWorkload.staticBatch(b, 512, 256));
            assertTrue(r.outputTokensPerSecondPerGpu() > last, "batch " + b);
            last = r.outputTokensPerSecondPerGpu();
        }
        InferenceResult huge = eval(L7, H100, p, new InferenceWorkload(1, 512, 256, 100_000));
        assertEquals(huge.maxBatch(), huge.servingBatch());
        InferenceResult more = eval(L7, H100, p, new InferenceWorkload(1, 512, 256, 200_000));
        assertEquals(huge.servingOutputTokensPerSecondPerGpu(), more.servingOutputTokensPerSecondPerGpu(), 0);
        InferenceResult small = eval(L7, H100, p, new InferenceWorkload(1, 512, 256, 8));
        assertTrue(small.servingOutputTokensPerSecondPerGpu() < huge.servingOutputTokensPerSecondPerGpu());
    }

    @Test
    void breakdownAddsUpToLatencyAndEnergyIsBounded() {
        InferenceResult r = eval(L70, H100, InferencePlan.tensorParallel(4), InferenceWorkload.staticBatch(8, 1024, 128));
        double sum = r.computeSeconds() + r.memoryBoundSeconds() + r.communicationSeconds() + r.overheadSeconds();
        assertEquals(r.e2eLatencySeconds(), sum, 1e-9 * sum);
        assertEquals(r.ttftSeconds() + r.decodeSeconds(), r.e2eLatencySeconds(), 1e-12);
        assertTrue(r.averagePowerWatts() > 0 && r.averagePowerWatts() <= H100.tdpWatts());
        assertTrue(r.joulesPerOutputToken() > 0);
        assertEquals(Bottleneck.MEMORY_BANDWIDTH, r.bottleneck());
    }

    @Test
    void prefillOfLongPromptsIsComputeBound() {
        InferenceResult r = eval(L7, A100, InferencePlan.tensorParallel(1), InferenceWorkload.staticBatch(16, 4096, 1));
        assertEquals(Bottleneck.COMPUTE, r.bottleneck());
        // 2 * params * tokens flops at no more than the sustained GEMM peak.
        double flops = 2 * 6.5e9 * 16 * 4096;
        assertTrue(r.prefillSeconds() > flops / (A100.peakFlopsPerSecond(Precision.BF16)));
    }

    @Test
    void moeDecodeReadsOnlyTouchedExperts() {
        ModelSpec mixtral = ModelCatalog.bundled().model("mixtral-8x7b");
        InferencePlan p = InferencePlan.tensorParallel(2);
        InferenceResult b1 = eval(mixtral, H100, p, InferenceWorkload.staticBatch(1, 256, 64));
        InferenceResult b64 = eval(mixtral, H100, p, InferenceWorkload.staticBatch(64, 256, 64));
        assertTrue(b1.feasible() && b64.feasible());
        // Batch 1 touches 2 of 8 experts, batch 64 all of them: the step slows down by more than the KV growth.
        assertTrue(b64.tpotSeconds() > 1.5 * b1.tpotSeconds());
    }

    // ---- bad input

    @Test
    void rejectsTpThatDoesNotDivideKvHeads() {
        ModelSpec m = new ModelSpec("odd", 8, 3072, 48, 12, 8192, MlpType.SWIGLU, 32000, 4096, false, null, "test");
        InferencePlan p = InferencePlan.tensorParallel(8);
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> InferenceStep.validate(m, node(A100), p));
        assertEquals("inference plan: plan.tp: expected a divisor or a multiple of the model's kv_heads (12); KV heads "
                + "are split when kv_heads >= tp and replicated when tp > kv_heads, found 8", e.getMessage());
        InferenceResult r = new InferenceStep().evaluate(m, node(A100), p, InferenceWorkload.staticBatch(1, 10, 10));
        assertEquals(Infeasibility.PLAN_SHAPE, r.infeasibility());
        assertTrue(r.detail().contains("kv_heads"));
    }

    @Test
    void rejectsTpThatDoesNotDivideHeadsAndMoreStagesThanLayers() {
        InferencePlan p = new InferencePlan(3, 40, 1, 1, Precision.BF16, Precision.BF16, Precision.BF16, false, true);
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> InferenceStep.validate(L7, SystemSpec.of(A100, 128, HW.defaultNetwork(A100)), p));
        assertTrue(e.getMessage().contains("plan.tp: expected a divisor of the model's heads (32), found 3"),
                e.getMessage());
        assertTrue(e.getMessage().contains("plan.pp: expected at most the model's layers (32) model chunks (pp x "
                + "vpp; stages may be uneven)") && e.getMessage().contains("found 40"), e.getMessage());
    }

    @Test
    void unevenPipelineStagesAreAllowedAsInTraining() {
        // ShapeRules is one rule set: 32 layers over 5 stages run 7 on the most loaded stage, as a training plan may.
        InferencePlan uneven = InferencePlan.tensorParallel(1).withParallelism(1, 5, 1, 1);
        assertTrue(InferenceStep.check(L7, uneven).isEmpty());
        InferencePlan even = InferencePlan.tensorParallel(1).withParallelism(1, 4, 1, 1);
        InferenceWorkload w = InferenceWorkload.staticBatch(1, 128, 16);
        double unevenWeights = new InferenceStep().evaluate(L7, SystemSpec.of(A100, 5, HW.defaultNetwork(A100)),
                uneven, w).weightBytes();
        double evenWeights = new InferenceStep().evaluate(L7, SystemSpec.of(A100, 4, HW.defaultNetwork(A100)), even,
                w).weightBytes();
        assertTrue(unevenWeights < evenWeights, unevenWeights + " vs " + evenWeights);
    }

    @Test
    void rejectsNonPositivePlanAndWorkloadFields() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> new InferencePlan(0, 1, 1, 1, Precision.BF16, Precision.BF16, Precision.BF16, false, true));
        assertEquals("inference plan: plan.tp: expected an integer >= 1, found 0", e.getMessage());
        InvalidInputException w = assertThrows(InvalidInputException.class,
                () -> InferenceWorkload.staticBatch(1, 0, 10));
        assertEquals("inference workload: workload.input_tokens: expected an integer >= 1, found 0", w.getMessage());
        InvalidInputException tf32 = assertThrows(InvalidInputException.class,
                () -> new InferencePlan(1, 1, 1, 1, Precision.TF32, Precision.BF16, Precision.BF16, false, true));
        assertTrue(tf32.getMessage().startsWith("inference plan: plan.weight_precision:"), tf32.getMessage());
        InvalidInputException ep = assertThrows(InvalidInputException.class,
                () -> new InferencePlan(4, 1, 0, 1, Precision.BF16, Precision.BF16, Precision.BF16, false, true));
        assertEquals("inference plan: plan.ep: expected an integer >= 1, found 0", ep.getMessage());
    }

    @Test
    void expertParallelismOnADenseModelIsAShapeError() {
        InferencePlan p = InferencePlan.tensorParallel(2).withParallelism(2, 1, 2, 1);
        assertTrue(InferenceStep.check(L7, p).get(0).message().contains("plan.ep: expected 1 for a dense model"));
    }

    @Test
    void moreGpusThanTheSystemHasIsInfeasible() {
        SystemSpec four = SystemSpec.of(A100, 4, HW.defaultNetwork(A100));
        InferenceResult r = new InferenceStep().evaluate(L7, four, InferencePlan.tensorParallel(8),
                InferenceWorkload.staticBatch(1, 10, 10));
        assertEquals(Infeasibility.GPU_COUNT, r.infeasibility());
        assertThrows(InvalidInputException.class, () -> InferenceStep.validate(L7, four, InferencePlan.tensorParallel(8)));
    }

    // ---- metrics

    @Test
    void metricsAreReportedInCaseUnits() {
        InferenceResult r = eval(L7, H100, InferencePlan.tensorParallel(1), InferenceWorkload.staticBatch(2, 100, 50));
        assertEquals(r.e2eLatencySeconds(), InferenceMetrics.predict("e2e_latency_s", r), 0);
        assertEquals(r.ttftSeconds() * 1000, InferenceMetrics.predict("ttft_ms", r), 0);
        assertEquals(r.tpotSeconds() * 1000, InferenceMetrics.predict("tpot_ms", r), 0);
        assertEquals(2 * 50 / r.e2eLatencySeconds(), InferenceMetrics.predict("output_tokens_per_s_per_gpu", r), 1e-9);
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> InferenceMetrics.predict("ttft_s", r));
        assertTrue(e.getMessage().contains("did you mean 'ttft_ms'"), e.getMessage());
    }
}
