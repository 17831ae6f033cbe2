package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.ops.MemoryBoundOp;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.workload.ArchitectureDetail;
import io.ridgeline.engine.workload.MlpType;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mechanisms of the 2025-26 stacks: Megatron-core's pipeline split with the embedding and loss as pipeline layers, the
 * fused attention rate set by the special-function units' exponential rate, context-parallel chunking, and the fused
 * FP8 MoE path of the Megatron-Bridge 26.06 recipes.
 */
class CurrentStackMechanismsTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private static final StackCatalog STACKS = StackCatalog.bundled();
    private static final ModelCatalog MODELS = ModelCatalog.bundled();
    private final TrainingStep step = new TrainingStep();

    private static TrainingBehaviour sw(String id) {
        return STACKS.profile(id).training();
    }

    private static TrainingPlan plan(int tp, int pp, int dp, int cp, int ep, int vpp, int gb, Precision p,
                                     TrainingBehaviour sw) {
        return new TrainingPlan(tp, pp, dp, cp, ep, tp > 1, vpp, 1, 1, gb, Recompute.AUTO, p, sw);
    }

    private static SystemSpec system(String chip, int gpus) {
        return SystemSpec.of(HW.chip(chip), gpus, HW.defaultNetwork(HW.chip(chip)));
    }

    @Test
    void embeddingAndLossCountAsPipelineLayersWhenTheyCompleteTheChunks() {
        ModelSpec llama405 = MODELS.model("llama3.1-405b");
        TrainingPlan p16v8 = plan(4, 16, 4, 1, 1, 8, 1536, Precision.FP8, sw("megatron-bridge@25.11"));
        // 126 layers + embedding + loss = 128 = 16 x 8 chunks: well-shaped, first and last stages one layer lighter.
        assertNull(ShapeRules.training(llama405, 8192, p16v8));
        assertTrue(PipelineLayout.accountsForEdges(llama405, p16v8));
        assertEquals(8, PipelineLayout.middleLayers(llama405, p16v8));
        assertEquals(7, PipelineLayout.edgeLayers(llama405, p16v8));
        // 126 layers over 10 stages (neither 126 nor 128 divisible): an uneven split, ceil(126 / 10) = 13 charged.
        TrainingPlan p10 = plan(4, 10, 4, 1, 1, 1, 1536, Precision.FP8, sw("megatron-bridge@25.11"));
        assertFalse(PipelineLayout.accountsForEdges(llama405, p10));
        assertEquals(13, PipelineLayout.edgeLayers(llama405, p10));
        assertEquals(13, PipelineLayout.middleLayers(llama405, p10));
        // Chunks beyond layers + 2 cannot all hold something.
        InputError problem = ShapeRules.training(llama405, 8192, plan(4, 16, 4, 1, 1, 9, 1536, Precision.FP8,
                sw("megatron-bridge@25.11")));
        assertNotNull(problem);
        assertTrue(problem.detail().startsWith("plan.pp: expected at most the model's layers (126) model chunks")
                && problem.detail().contains("layers + 2 = 128"), problem.detail());
        TrainingResult r = step.evaluate(llama405, 8192, system("gb200", 256), p16v8);
        assertTrue(r.feasible(), r.detail());
    }

    @Test
    void fusedAttentionSlowsWithNarrowHeadsAsTheExponentialsBind() {
        // Per score 2 (d_qk + d_v) tensor-core FLOPs and one exponential: d0 = 64 on H100, 128 on B200, 64 on B300.
        double h100 = headWidthRatio("h100-sxm");
        double b200 = headWidthRatio("b200");
        double b300 = headWidthRatio("b300");
        assertEquals((64.0 / 128) / (128.0 / 192), h100, 0.01, "H100");
        assertEquals((64.0 / 192) / (128.0 / 256), b200, 0.01, "B200 (FlashAttention-4: 0.66)");
        assertEquals(h100, b300, 0.01, "Blackwell Ultra doubles the exponential rate");
        // At head dim 128 Blackwell Ultra's attention is faster than B200's at the same 16-bit peak.
        assertTrue(attentionSeconds("b300", 128) < attentionSeconds("b200", 128));
    }

    /** Attention time at head dim 128 over head dim 64, per FLOP (equal FLOPs: twice the heads at 64). */
    private double headWidthRatio(String chip) {
        return attentionSeconds(chip, 128) / attentionSeconds(chip, 64);
    }

    private double attentionSeconds(String chip, int headDim) {
        int heads = 4096 / headDim;
        ModelSpec m = new ModelSpec("m" + headDim, 32, 4096, heads, heads, 14336, MlpType.SWIGLU, 128256, 131072, false,
                null, "test");
        TrainingPlan p = plan(1, 1, 8, 1, 1, 1, 64, Precision.BF16, sw("megatron-bridge@25.11"));
        SystemSpec sys = system(chip, 8);
        GemmModel gemm = new GemmModel(sys.chip());
        AttentionTime at = new AttentionTime(gemm, new MemoryBoundOp(sys.chip()));
        Group one = new Group(1, 1, 1);
        return at.gemmForward(LayerShape.of(m, 131072, p, one, one, one, false));
    }

    @Test
    void contextParallelChunksCostTheirRingStepsMerges() {
        ModelSpec m = MODELS.model("llama3-8b");
        // A stack with the fused 16-bit loss: nemo@24.07's fp32 logits push the CP-1 plan at 8k tokens into partial
        // recomputation, which would confound the comparison of the two attention layouts.
        TrainingBehaviour stack = sw("megatron-bridge@25.11");
        SystemSpec node = system("h100-sxm", 8);
        TrainingResult cp1 = step.evaluate(m, 8192, node, plan(1, 1, 8, 1, 1, 1, 64, Precision.BF16, stack));
        TrainingResult cp2 = step.evaluate(m, 8192, node, plan(1, 1, 4, 2, 1, 1, 64, Precision.BF16, stack));
        assertTrue(cp1.feasible() && cp2.feasible());
        // The same tokens per device-step, split over two ring steps: per-call tile overhead and output merges.
        assertTrue(cp2.memoryBoundSeconds() > cp1.memoryBoundSeconds());
        assertTrue(cp2.stepTimeSeconds() > cp1.stepTimeSeconds());
    }

    @Test
    void theFusedMoePathAppliesToFp8MoeOnBlockScaledGpusOnly() {
        ModelSpec qwen = MODELS.model("qwen3-30b-a3b");
        TrainingBehaviour old = sw("megatron-bridge@25.11");
        TrainingBehaviour fused = sw("megatron-bridge@26.06");
        assertFalse(old.moeFp8FastPath());
        assertTrue(fused.moeFp8FastPath());
        SystemSpec gb200 = system("gb200", 8);
        double before = step.evaluate(qwen, 4096, gb200, plan(1, 1, 8, 1, 8, 1, 512, Precision.FP8, old))
                .stepTimeSeconds();
        double after = step.evaluate(qwen, 4096, gb200, plan(1, 1, 8, 1, 8, 1, 512, Precision.FP8, fused))
                .stepTimeSeconds();
        assertTrue(after < 0.9 * before, after + " vs " + before);
        // H100 has no block-scaled tensor cores, bf16 plans and dense models take no fused path.
        SystemSpec h100 = system("h100-sxm", 8);
        assertEquals(step.evaluate(qwen, 4096, h100, plan(1, 1, 8, 1, 8, 1, 512, Precision.FP8, old))
                .stepTimeSeconds(), step.evaluate(qwen, 4096, h100, plan(1, 1, 8, 1, 8, 1, 512, Precision.FP8,
                fused)).stepTimeSeconds(), 1e-12);
        assertEquals(step.evaluate(qwen, 4096, gb200, plan(1, 1, 8, 1, 8, 1, 512, Precision.BF16, old))
                .stepTimeSeconds(), step.evaluate(qwen, 4096, gb200, plan(1, 1, 8, 1, 8, 1, 512, Precision.BF16,
                fused)).stepTimeSeconds(), 1e-12);
        ModelSpec dense = MODELS.model("llama3-8b");
        assertEquals(step.evaluate(dense, 4096, gb200, plan(1, 1, 8, 1, 1, 1, 512, Precision.FP8, old))
                .stepTimeSeconds(), step.evaluate(dense, 4096, gb200, plan(1, 1, 8, 1, 1, 1, 512, Precision.FP8,
                fused)).stepTimeSeconds(), 1e-12);
    }

    @Test
    void slidingWindowLayersPayTheirDiagonalTiles() {
        ModelSpec full = MODELS.model("llama3-8b");
        ModelSpec windowed = full.withDetail(new ArchitectureDetail(0, 0, 128, 1.0, null));
        TrainingPlan p = plan(1, 1, 8, 1, 1, 1, 64, Precision.BF16, sw("megatron-bridge@25.11"));
        SystemSpec sys = system("b200", 8);
        AttentionTime at = new AttentionTime(new GemmModel(sys.chip()), new MemoryBoundOp(sys.chip()));
        Group one = new Group(1, 1, 1);
        double fullSeconds = at.gemmForward(LayerShape.of(full, 8192, p, one, one, one, false));
        double windowSeconds = at.gemmForward(LayerShape.of(windowed, 8192, p, one, one, one, false));
        // 128 keys per query instead of 4096 on average; the window computes its two 128-key tiles and the causal layer
        // half a diagonal tile beyond its useful keys, each query tile paying Blackwell's fixed 590 keys (families.csv).
        double flopRatio = 128.0 / 4096;
        double rateRatio = (128.0 / (256 + 590)) / (4096.0 / (4096 + 64 + 590));
        assertEquals(flopRatio / rateRatio, windowSeconds / fullSeconds, 0.01);
    }

    @Test
    void blackwellWindowMatchesTheCudnnGptOssMicrobenchmarkItWasNotFittedOn() {
        // Blackwell's tile overhead (590 keys) is fitted on cuDNN 9.22's causal sweeps at head dim 128; the same
        // release's GPT-OSS window benchmark on GB200 (2 x 4096 tokens, 128 heads, head dim 64, 128-key window) runs
        // its forward at 161 TFLOP/s (cuDNN frontend results/gpt_oss/gb200, commit fb682ce).
        ModelSpec m = new ModelSpec("w128", 1, 8192, 128, 128, 8192, MlpType.SWIGLU, 32000, 4096, false, null, "test")
                .withDetail(new ArchitectureDetail(64, 0, 128, 1.0, null));
        TrainingPlan p = plan(1, 1, 8, 1, 1, 1, 16, Precision.BF16, sw("megatron-bridge@25.11")).withMicroBatch(2);
        SystemSpec sys = system("gb200", 8);
        AttentionTime at = new AttentionTime(new GemmModel(sys.chip()), new MemoryBoundOp(sys.chip()));
        Group one = new Group(1, 1, 1);
        double seconds = at.gemmForward(LayerShape.of(m, 4096, p, one, one, one, false));
        double tflops = 4.0 * 2 * 128 * 4096 * 128 * 64 / seconds / 1e12;
        assertEquals(161, tflops, 161 * 0.15);
    }

    @Test
    void hopperWindowMatchesTheCudnnSlidingWindowMicrobenchmark() {
        // Held-out check of the tile structure on Hopper (F = 64, fitted on FlashAttention-3's causal sweep): cuDNN
        // 9.19 on H200, 64 heads, 8 KV heads, head dim 64, window 1024, 2 x 4096 tokens runs its forward at 336
        // TFLOP/s on the window's work (cuDNN frontend results/h200_919_only_cudnn/gpt_oss, commit fb682ce).
        ModelSpec m = new ModelSpec("w1024", 1, 4096, 64, 8, 4096, MlpType.SWIGLU, 32000, 4096, false, null, "test")
                .withDetail(new ArchitectureDetail(64, 0, 1024, 1.0, null));
        TrainingPlan p = plan(1, 1, 8, 1, 1, 1, 16, Precision.BF16, sw("megatron-bridge@25.11")).withMicroBatch(2);
        SystemSpec sys = system("h100-sxm", 8);
        AttentionTime at = new AttentionTime(new GemmModel(sys.chip()), new MemoryBoundOp(sys.chip()));
        Group one = new Group(1, 1, 1);
        double seconds = at.gemmForward(LayerShape.of(m, 4096, p, one, one, one, false));
        // The benchmark's own FLOP count: keys inside the window, fewer for the first 1024 queries.
        double usefulKeys = 1024 - 1024.0 * 1024 / (2 * 4096);
        double tflops = 4 * 2 * 64 * 4096 * usefulKeys * 64 / seconds / 1e12;
        assertEquals(336, tflops, 336 * 0.15);
    }

    @Test
    void squaredReluRunsUnfusedAndNemotronTrainsWithoutDropout() {
        ModelSpec nemotron = MODELS.model("nemotron-3-8b");
        assertTrue(nemotron.squaredRelu());
        assertFalse(nemotron.trainsWithDropout(true), "its configuration sets dropout 0");
        ModelSpec gpt = new ModelSpec("gpt-like", 32, 4096, 32, 32, 16384, MlpType.GELU, 256000, 4096, false, null,
                "test");
        assertTrue(gpt.trainsWithDropout(true));
        TrainingBehaviour nemo = sw("nemo@24.07");
        SystemSpec sys = system("h100-sxm", 8);
        GemmModel gemm = new GemmModel(sys.chip());
        MemoryBoundOp memory = new MemoryBoundOp(sys.chip());
        LayerTime lt = new LayerTime(gemm, memory, new io.ridgeline.engine.network.CollectiveModel(sys,
                HW.curve(sys.chip())));
        TrainingPlan p = plan(1, 1, 8, 1, 1, 1, 64, Precision.BF16, nemo);
        Group one = new Group(1, 1, 1);
        ModelSpec reluNoDropout = nemotron.withDetail(new ArchitectureDetail(0, 0, 0, 0, null, true, true));
        ModelSpec geluNoDropout = nemotron.withDetail(new ArchitectureDetail(0, 0, 0, 0, null, false, true));
        double relu = lt.forward(LayerShape.of(reluNoDropout, 4096, p, one, one, one, false)).memorySeconds();
        double gelu = lt.forward(LayerShape.of(geluNoDropout, 4096, p, one, one, one, false)).memorySeconds();
        assertTrue(relu > gelu, relu + " vs " + gelu);
    }

    @Test
    void userbuffersOverlapsTakeTheirSmsFromTheGemms() {
        ModelSpec m = MODELS.model("llama3-70b");
        TrainingBehaviour mb = sw("megatron-bridge@25.11");
        SystemSpec sys = system("h100-sxm", 8);
        LayerTime lt = new LayerTime(new GemmModel(sys.chip()), new MemoryBoundOp(sys.chip()),
                new io.ridgeline.engine.network.CollectiveModel(sys, HW.curve(sys.chip())));
        TrainingPlan p = plan(8, 1, 1, 1, 1, 1, 8, Precision.BF16, mb);
        Group tp = new Group(8, 8, 1);
        Group one = new Group(1, 1, 1);
        double withTp = lt.forward(LayerShape.of(m, 4096, p, tp, one, one, false)).gemmSeconds();
        double noTp = lt.forward(LayerShape.of(m, 4096, p, one, one, one, false)).gemmSeconds();
        // Only the projection and MLP-down GEMMs (the pipelined reduce-scatters) run on 132 - 16 SMs.
        assertTrue(withTp > noTp && withTp < noTp * 132 / 116.0, withTp + " vs " + noTp);
    }

    @Test
    void aChipsOwnMeasuredGemmEfficiencyOverridesItsFamily() {
        assertEquals(0.729, HW.chip("gb200").family().gemmPeakFraction(), 1e-9);
        assertEquals(0.723, HW.chip("gb200").family().gemmLowPrecisionFraction(), 1e-9);
        assertEquals(HW.family("blackwell").gemmPeakFraction(), HW.chip("b200").family().gemmPeakFraction(), 1e-9);
        assertEquals("blackwell", HW.chip("gb200").family().name());
    }
}
