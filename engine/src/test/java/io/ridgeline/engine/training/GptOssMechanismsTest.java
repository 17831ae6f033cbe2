package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.ops.MemoryBoundOp;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.ExpertBias;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.workload.ArchitectureDetail;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * GPT-OSS as today's stacks run it: the YaRN rotary Megatron-Bridge leaves unfused, the experts' output biases in
 * Megatron-core's eager per-expert loop, the FP8 sliding-window backward of the 26.06 fused path, the dGLU-dbias
 * kernel regression of 26.06.01, and the per-query-tile overhead that sets a 128-key window's rate.
 */
class GptOssMechanismsTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private static final StackCatalog STACKS = StackCatalog.bundled();
    private static final ModelCatalog MODELS = ModelCatalog.bundled();
    private static final Group ONE = new Group(1, 1, 1);

    private static TrainingBehaviour sw(String id) {
        return STACKS.profile(id).training();
    }

    private static TrainingPlan plan(int dp, int ep, int gb, Precision p, TrainingBehaviour sw) {
        return new TrainingPlan(1, 1, dp, 1, ep, false, 1, 1, 4, gb, Recompute.AUTO, p, sw);
    }

    /** The same model without the two GPT-OSS traits, everything else equal. */
    private static ModelSpec without(ModelSpec m, boolean yarn, boolean bias) {
        return with(m, yarn, bias, m.clampedGlu());
    }

    private static ModelSpec with(ModelSpec m, boolean yarn, boolean bias, boolean clampedGlu) {
        ArchitectureDetail d = m.detail();
        return m.withDetail(new ArchitectureDetail(d.headDim(), d.denseLayers(), d.slidingWindow(),
                d.slidingLayerShare(), d.mla(), d.squaredRelu(), d.noDropout(), yarn, bias, d.mxfp4Experts(),
                clampedGlu));
    }

    /** The memory-bound time {@code with} adds over {@code without}: the given traffic and kernels in each pass. */
    private static void assertAdds(LayerTime lt, MemoryBoundOp mem, LayerShape with, LayerShape without,
                                   double forwardBytes, int forwardKernels, double backwardBytes, int backwardKernels) {
        assertEquals(mem.seconds(forwardBytes, 0, forwardKernels),
                lt.forward(with).memorySeconds() - lt.forward(without).memorySeconds(), 1e-9);
        assertEquals(mem.seconds(backwardBytes, 0, backwardKernels),
                lt.backward(with, 0, false).memorySeconds() - lt.backward(without, 0, false).memorySeconds(), 1e-9);
    }

    private static LayerTime layerTime(SystemSpec sys) {
        return new LayerTime(new GemmModel(sys.chip()), new MemoryBoundOp(sys.chip()),
                new CollectiveModel(sys, HW.curve(sys.chip())));
    }

    @Test
    void bothGptOssSizesCompleteFromTheirPublicConfigurations() {
        for (String id : new String[] {"gpt-oss-20b", "gpt-oss-120b"}) {
            ModelSpec m = MODELS.model(id);
            assertTrue(m.yarnRope() && m.expertBias() && m.clampedGlu(), id);
            assertEquals(64, m.headDim());
            ModelSpec shape = new ModelSpec("shape", m.layers(), m.hidden(), m.heads(), m.kvHeads(), m.ffn(), m.mlp(),
                    m.vocab(), 4096, false, m.moe(), "case");
            assertSame(m, MODELS.completing(shape), id);
        }
    }

    @Test
    void anUnfusedYarnRotaryAddsItsEagerTrafficAndKernels() {
        ModelSpec oss = MODELS.model("gpt-oss-120b");
        ModelSpec fusedRope = without(oss, false, true);
        SystemSpec sys = SystemSpec.of(HW.chip("gb200"), 64, HW.defaultNetwork(HW.chip("gb200")));
        TrainingPlan p = plan(64, 64, 1280, Precision.BF16, sw("megatron-bridge@25.11"));
        assertFalse(p.software().yarnRopeFusion(), "Megatron-Bridge turns rope fusion off for YaRN");
        LayerTime lt = layerTime(sys);
        LayerShape s = LayerShape.of(oss, 4096, p, ONE, ONE, new Group(64, 1, 72), false);
        LayerShape f = LayerShape.of(fusedRope, 4096, p, ONE, ONE, new Group(64, 1, 72), false);
        double elements = s.tokens() * (s.qkvWidth() - (double) oss.kvWidth());
        MemoryBoundOp mem = new MemoryBoundOp(sys.chip());
        // 24 - 4 B per Q/K element forward and 24 - 8 backward beyond the fused kernel, 26 and 14 kernels.
        assertAdds(lt, mem, s, f, elements * 20, 26, elements * 16, 14);
        assertEquals(26, lt.forward(s).kernels() - lt.forward(f).kernels(), 1e-9);
        // NeMo AutoModel's benchmark recipes fuse it (rope_fusion: true): nothing extra there.
        TrainingPlan auto = plan(64, 64, 1280, Precision.BF16, sw("nemo-automodel"));
        LayerShape a = LayerShape.of(oss, 4096, auto, ONE, ONE, new Group(64, 1, 72), false);
        LayerShape af = LayerShape.of(fusedRope, 4096, auto, ONE, ONE, new Group(64, 1, 72), false);
        assertEquals(lt.forward(af).kernels(), lt.forward(a).kernels(), 1e-9);
    }

    @Test
    void megatronCoreClampsTheGluEagerlyWhereAutoModelCompilesIt() {
        ModelSpec oss = MODELS.model("gpt-oss-120b");
        ModelSpec unclamped = with(oss, true, true, false);
        SystemSpec sys = SystemSpec.of(HW.chip("gb200"), 64, HW.defaultNetwork(HW.chip("gb200")));
        TrainingPlan p = plan(64, 64, 1280, Precision.BF16, sw("megatron-bridge@25.11"));
        assertFalse(p.software().gluClampFusion());
        LayerTime lt = layerTime(sys);
        Group ep = new Group(64, 1, 72);
        LayerShape s = LayerShape.of(oss, 4096, p, ONE, ONE, ep, true);
        LayerShape u = LayerShape.of(unclamped, 4096, p, ONE, ONE, ep, true);
        // Every routed copy's [gate | linear] up-projection output: 4 copies x 2 x 2880 per token.
        double elements = s.expertTokens() * 4 * 2 * 2880;
        MemoryBoundOp mem = new MemoryBoundOp(sys.chip());
        // Forward: two clamps and a cat, 8 B per element; backward: clamp_backward (8 and 14 B per half) and the
        // split's cat, 15 B per element, 9 kernels.
        assertAdds(lt, mem, s, u, elements * 8, 3, elements * 15, 9);
        assertEquals(3, lt.forward(s).kernels() - lt.forward(u).kernels(), 1e-9);
        // NeMo AutoModel's torch.compile'd quick_geglu_deepep and the 26.06 fused path's epilogue: nothing extra.
        for (TrainingPlan q : new TrainingPlan[] {plan(64, 64, 1280, Precision.BF16, sw("nemo-automodel")),
                plan(64, 64, 1280, Precision.FP8, sw("megatron-bridge@26.06"))}) {
            LayerShape a = LayerShape.of(oss, 4096, q, ONE, ONE, ep, true);
            LayerShape b = LayerShape.of(unclamped, 4096, q, ONE, ONE, ep, true);
            assertEquals(lt.forward(b).memorySeconds(), lt.forward(a).memorySeconds(), 1e-12);
            assertEquals(lt.backward(b, 0, false).memorySeconds(), lt.backward(a, 0, false).memorySeconds(), 1e-12);
        }
        // A model without a clamped GLU is untouched on the same stack.
        assertFalse(MODELS.model("qwen3-30b-a3b").clampedGlu());
    }

    @Test
    void expertOutputBiasesRunAsAnEagerLoopOffTheFusedPath() {
        ModelSpec oss = MODELS.model("gpt-oss-120b");
        ModelSpec noBias = without(oss, true, false);
        SystemSpec sys = SystemSpec.of(HW.chip("gb200"), 64, HW.defaultNetwork(HW.chip("gb200")));
        TrainingPlan p = plan(64, 64, 1280, Precision.BF16, sw("megatron-bridge@25.11"));
        assertSame(ExpertBias.EAGER_OUTPUT, p.software().moeExpertBias());
        LayerTime lt = layerTime(sys);
        Group ep = new Group(64, 1, 72);
        LayerShape s = LayerShape.of(oss, 4096, p, ONE, ONE, ep, true);
        LayerShape n = LayerShape.of(noBias, 4096, p, ONE, ONE, ep, true);
        double copies = s.expertTokens() * 4;
        MemoryBoundOp mem = new MemoryBoundOp(sys.chip());
        // 2 local experts: forward 28 B per output element and 2 x 2 + 2 kernels, backward 36 B and 2 x 5 + 1.
        assertAdds(lt, mem, s, n, copies * oss.hidden() * 28, 6, copies * oss.hidden() * 36, 11);
        // The 26.06 fused FP8 path adds the biases in its grouped kernels' epilogues.
        TrainingPlan fused = plan(64, 64, 1280, Precision.FP8, sw("megatron-bridge@26.06"));
        LayerShape fs = LayerShape.of(oss, 4096, fused, ONE, ONE, ep, true);
        LayerShape fn = LayerShape.of(noBias, 4096, fused, ONE, ONE, ep, true);
        assertTrue(fs.moeFastPath());
        assertEquals(lt.forward(fn).memorySeconds(), lt.forward(fs).memorySeconds(), 1e-12);
        assertEquals(lt.backward(fn, 0, false).memorySeconds(), lt.backward(fs, 0, false).memorySeconds(), 1e-12);
    }

    @Test
    void theFp8WindowBackwardOfTheFusedPathCostsAFullCausalLayer() {
        ModelSpec oss = MODELS.model("gpt-oss-120b");
        SystemSpec sys = SystemSpec.of(HW.chip("gb300"), 64, HW.defaultNetwork(HW.chip("gb300")));
        AttentionTime at = new AttentionTime(new GemmModel(sys.chip()), new MemoryBoundOp(sys.chip()));
        Group ep = new Group(16, 1, 72);
        LayerShape fused = LayerShape.of(oss, 4096, plan(64, 16, 1280, Precision.FP8, sw("megatron-bridge@26.06")),
                ONE, ONE, ep, true);
        LayerShape allWindows = LayerShape.of(oss.withDetail(new ArchitectureDetail(64, 0, 128, 1.0, null)), 4096,
                plan(64, 16, 1280, Precision.FP8, sw("megatron-bridge@26.06")), ONE, ONE, ep, true);
        LayerShape noWindow = LayerShape.of(oss.withDetail(new ArchitectureDetail(64, 0, 0, 0, null)), 4096,
                plan(64, 16, 1280, Precision.FP8, sw("megatron-bridge@26.06")), ONE, ONE, ep, true);
        assertTrue(fused.moeFastPath() && !fused.plan().software().fp8WindowBackwardSkips());
        // Forward skips the tiles outside the window (a third of a 4k causal layer's time: 1/16 of its keys at a fifth
        // of its rate); backward computes the whole causal triangle.
        assertTrue(at.gemmForward(allWindows) < 0.4 * at.gemmForward(noWindow));
        assertEquals(at.gemmBackward(noWindow), at.gemmBackward(allWindows), 1e-12);
        // The bf16 path of the same stack skips in both passes.
        TrainingPlan bf16 = plan(64, 16, 1280, Precision.BF16, sw("megatron-bridge@26.06"));
        LayerShape w16 = LayerShape.of(oss.withDetail(new ArchitectureDetail(64, 0, 128, 1.0, null)), 4096, bf16, ONE,
                ONE, ep, true);
        LayerShape f16 = LayerShape.of(oss.withDetail(new ArchitectureDetail(64, 0, 0, 0, null)), 4096, bf16, ONE,
                ONE, ep, true);
        assertTrue(at.gemmBackward(w16) < 0.4 * at.gemmBackward(f16));
    }

    @Test
    void theDbiasRegressionOf2606Point01SlowsOnlyModelsWithExpertBiases() {
        ModelSpec oss = MODELS.model("gpt-oss-120b");
        ModelSpec dsv3 = MODELS.model("deepseek-v3");
        assertEquals(8.76, sw("megatron-bridge@26.06.01").fusedMoeDbiasFactor(), 1e-12);
        assertEquals(1, sw("megatron-bridge@26.08").fusedMoeDbiasFactor(), 1e-12);
        SystemSpec sys = SystemSpec.of(HW.chip("gb200"), 64, HW.defaultNetwork(HW.chip("gb200")));
        GemmModel gemm = new GemmModel(sys.chip());
        ExpertTime ex = new ExpertTime(gemm, new MemoryBoundOp(sys.chip()), new CollectiveModel(sys,
                HW.curve(sys.chip())));
        Group ep = new Group(64, 1, 72);
        LayerShape bad = LayerShape.of(oss, 4096, plan(64, 64, 1280, Precision.FP8, sw("megatron-bridge@26.06.01")),
                ONE, ONE, ep, true);
        LayerShape good = LayerShape.of(oss, 4096, plan(64, 64, 1280, Precision.FP8, sw("megatron-bridge@26.08")),
                ONE, ONE, ep, true);
        double m = ExpertTime.tokensPerLocalExpert(bad);
        double dglu = gemm.seconds(2, m, bad.expertFfn(), bad.hidden(), Precision.FP8);
        assertEquals(7.76 * dglu, ex.gemmBackward(bad, Precision.FP8) - ex.gemmBackward(good, Precision.FP8),
                1e-9);
        LayerShape d1 = LayerShape.of(dsv3, 4096, plan(64, 64, 4096, Precision.FP8, sw("megatron-bridge@26.06.01")),
                ONE, ONE, ep, true);
        LayerShape d2 = LayerShape.of(dsv3, 4096, plan(64, 64, 4096, Precision.FP8, sw("megatron-bridge@26.08")),
                ONE, ONE, ep, true);
        assertEquals(ex.gemmBackward(d2, Precision.FP8), ex.gemmBackward(d1, Precision.FP8), 1e-12);
    }

    @Test
    void gb300SustainsGb200sGemmRateTimesTheirMeasuredAttentionBackwardRatio() {
        var gb200 = HW.chip("gb200").family();
        var gb300 = HW.chip("gb300").family();
        assertNotNull(gb300);
        assertEquals(1.11, gb300.gemmPeakFraction() / gb200.gemmPeakFraction(), 0.005);
        assertEquals(1.11, gb300.gemmLowPrecisionFraction() / gb200.gemmLowPrecisionFraction(), 0.005);
    }
}
