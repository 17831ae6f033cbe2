package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.workload.ArchitectureDetail;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GPT-OSS's MXFP4 checkpoint served as shipped on Hopper (ServingBehaviour mxfp4_moe_w4a16): TensorRT-LLM 1.x runs
 * the experts W4A16 and everything else, the KV cache included, in bf16, whatever the benchmark table's precision.
 */
class ShippedCheckpointTest {
    // The catalogues and runtimes of RuntimeVersionsTest (same package).
    static final HardwareCatalog HW = RuntimeVersionsTest.HW;
    static final ServingBehaviour V05 = RuntimeVersionsTest.V05;
    static final ServingBehaviour V10 = RuntimeVersionsTest.V10;
    static final ServingBehaviour V12 = RuntimeVersionsTest.STACKS.profile("trt-llm@1.2").serving();
    static final ModelCatalog MODELS = ModelCatalog.bundled();
    static final ModelSpec GPT_OSS = MODELS.model("gpt-oss-120b");
    static final Chip H100 = HW.chip("h100-sxm");
    static final Chip B200 = HW.chip("b200");

    static InferencePlan fp8(ServingBehaviour runtime) {
        return InferencePlan.tensorParallel(1).withPrecisions(Precision.FP8, Precision.FP8, Precision.FP8)
                .withRuntime(runtime);
    }

    @Test
    void catalogueMarksOnlyGptOssCheckpointsAsMxfp4Experts() {
        assertTrue(GPT_OSS.detail().mxfp4Experts());
        assertTrue(MODELS.model("gpt-oss-20b").detail().mxfp4Experts());
        ModelSpec qwen = MODELS.model("qwen3-235b-a22b");
        assertFalse(qwen.detail() != null && qwen.detail().mxfp4Experts());
        assertTrue(V10.mxfp4MoeW4a16());
        assertTrue(V12.mxfp4MoeW4a16(), "inherited by trt-llm@1.2");
        assertFalse(V05.mxfp4MoeW4a16());
    }

    @Test
    void hopperRunsTheCheckpointInBf16WithMxfp4Experts() {
        InferencePlan plan = fp8(V10);
        assertTrue(ShippedCheckpoint.w4a16Experts(GPT_OSS, H100, plan));
        InferencePlan served = ShippedCheckpoint.served(GPT_OSS, H100, plan);
        assertEquals(Precision.BF16, served.weightPrecision());
        assertEquals(Precision.BF16, served.activationPrecision());
        assertEquals(Precision.BF16, served.kvCachePrecision(), "no KV quantization in the checkpoint");
        SystemSpec one = SystemSpec.of(H100, 1, HW.defaultNetwork(H100));
        Replica r = new Replica(GPT_OSS, one, served, HW, new GemmModel(H100));
        assertEquals(0.5 + 1.0 / 32, r.expertWeightBytes, 1e-12);
        assertEquals(H100.peakFlopsPerSecond(Precision.BF16) * H100.family().gemmPeakFraction(Precision.BF16),
                r.expertFlopsPerSecond, 1e-3);
        assertEquals(2, r.kvBytes, 1e-12);
    }

    @Test
    void chipsWithFp4TensorCoresRuntimesWithoutTheBehaviourAndOtherModelsKeepThePlan() {
        InferencePlan plan = fp8(V10);
        assertSame(plan, ShippedCheckpoint.served(GPT_OSS, B200, plan));
        InferencePlan old = fp8(V05);
        assertSame(old, ShippedCheckpoint.served(GPT_OSS, H100, old));
        ModelSpec mixtral = MODELS.model("mixtral-8x7b");
        assertSame(plan, ShippedCheckpoint.served(mixtral, H100, plan));
    }

    @Test
    void memoryHoldsTheExpertsInMxfp4() {
        InferencePlan served = ShippedCheckpoint.served(GPT_OSS, H100, fp8(V10));
        double bf16 = new InferenceMemory(GPT_OSS, served, H100.memoryBytes(), false).weightBytes();
        double mxfp4 = new InferenceMemory(GPT_OSS, served, H100.memoryBytes(), true).weightBytes();
        double experts = GPT_OSS.layers() * InferenceMemory.localExpertParams(GPT_OSS, 1, 1);
        assertEquals(experts * (2 - (0.5 + 1.0 / 32)), bf16 - mxfp4, 1e-6 * bf16);
        // 120B parameters fit one 80 GB H100 only because the experts stay 4-bit (the checkpoint is ~61 GiB).
        assertTrue(mxfp4 < 70e9 && mxfp4 > 55e9, "weights " + mxfp4);
    }

    @Test
    void onHopperTheCheckpointNotTheTableLabelSetsThroughput() {
        SystemSpec one = SystemSpec.of(H100, 1, HW.defaultNetwork(H100));
        InferenceWorkload w = InferenceWorkload.saturated(1024, 1024);
        ModelSpec m = MODELS.model("gpt-oss-20b"); // 20B: fits one H100 in fp8 as well
        double fp8Label = new InferenceStep().evaluate(m, one, fp8(V10), w).outputTokensPerSecondPerGpu();
        double bf16Label = new InferenceStep().evaluate(m, one,
                fp8(V10).withPrecisions(Precision.BF16, Precision.BF16, Precision.BF16), w)
                .outputTokensPerSecondPerGpu();
        assertTrue(fp8Label > 0);
        assertEquals(bf16Label, fp8Label, 1e-9 * fp8Label);
        // The same shape without the MXFP4 checkpoint is read as fp8 W8A8 with an fp8 cache: faster on Hopper.
        ArchitectureDetail d = m.detail();
        ModelSpec fp8Checkpoint = new ModelSpec(m.name(), m.layers(), m.hidden(), m.heads(),
                m.kvHeads(), m.ffn(), m.mlp(), m.vocab(), m.maxSeqLen(),
                m.tiedEmbeddings(), m.moe(), m.source(), new ArchitectureDetail(d.headDim(),
                d.denseLayers(), d.slidingWindow(), d.slidingLayerShare(), d.mla(), d.squaredRelu(), d.noDropout(),
                d.yarnRope(), d.expertBias(), false));
        double literal = new InferenceStep().evaluate(fp8Checkpoint, one, fp8(V10), w).outputTokensPerSecondPerGpu();
        assertTrue(literal > 1.3 * fp8Label, literal + " vs " + fp8Label);
    }
}
