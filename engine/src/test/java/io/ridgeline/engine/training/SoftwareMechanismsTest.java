package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the software profile changes: recomputation policy, FSDP communication, memory formats, expert placement. */
class SoftwareMechanismsTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private static final StackCatalog STACKS = StackCatalog.bundled();
    private final TrainingStep step = new TrainingStep();

    private static TrainingBehaviour sw(String id) {
        return STACKS.profile(id).training();
    }

    private static TrainingPlan plan(int tp, int pp, int dp, int zero, int mb, int gb, Recompute r, Precision p,
                                     TrainingBehaviour sw) {
        return new TrainingPlan(tp, pp, dp, 1, 1, tp > 1, 1, zero, mb, gb, r, p, sw);
    }

    @Test
    void autoRecomputesNothingWhenActivationsFitAndTheFewestLayersWhenTheyDoNot() {
        ModelSpec m = ModelCatalog.bundled().model("llama3-8b");
        SystemSpec node = SystemSpec.of(HW.chip("h100-sxm"), 8, HW.defaultNetwork(HW.chip("h100-sxm")));
        TrainingBehaviour mb = sw("megatron-bridge@25.11");
        TrainingResult small = step.evaluate(m, 2048, node, plan(1, 1, 8, 1, 1, 64, Recompute.AUTO, Precision.BF16, mb));
        assertTrue(small.feasible());
        assertEquals(0, small.recomputedLayerFraction());
        TrainingResult big = step.evaluate(m, 8192, node, plan(1, 1, 8, 1, 4, 64, Recompute.AUTO, Precision.BF16, mb));
        assertTrue(big.feasible(), big.detail());
        assertTrue(big.recomputedLayerFraction() > 0 && big.recomputedLayerFraction() < 1,
                "partial: " + big.recomputedLayerFraction());
        TrainingResult none = step.evaluate(m, 8192, node, plan(1, 1, 8, 1, 4, 64, Recompute.NONE, Precision.BF16, mb));
        assertFalse(none.feasible(), "the plan needs recomputation at all");
        TrainingResult full = step.evaluate(m, 8192, node, plan(1, 1, 8, 1, 4, 64, Recompute.FULL, Precision.BF16, mb));
        assertTrue(big.stepTimeSeconds() < full.stepTimeSeconds(), "fewer recomputed layers, less time");
        assertTrue(big.hardwareFlopsPerStep() < full.hardwareFlopsPerStep());
    }

    @Test
    void fsdpBackwardPrefetchAfterComputeExposesEveryGather() {
        ModelSpec m = ModelCatalog.bundled().model("llama3-70b");
        SystemSpec cluster = SystemSpec.of(HW.chip("a100-80g"), 64, HW.network("hdr"));
        TrainingBehaviour pre = sw("pytorch-fsdp");
        TrainingBehaviour post = sw("llm-foundry");
        assertEquals(pre.reduceBytes(), post.reduceBytes());
        TrainingResult a = step.evaluate(m, 2048, cluster, plan(1, 1, 64, 3, 1, 64, Recompute.FULL, Precision.BF16, pre));
        TrainingResult b = step.evaluate(m, 2048, cluster, plan(1, 1, 64, 3, 1, 64, Recompute.FULL, Precision.BF16,
                post));
        assertTrue(a.feasible() && b.feasible());
        assertTrue(b.dpCommSeconds() > a.dpCommSeconds(), b.dpCommSeconds() + " vs " + a.dpCommSeconds());
    }

    @Test
    void zero3ShardsStatesAndHoldsOnlyGatheredUnits() {
        ModelSpec m = ModelCatalog.bundled().model("llama3-70b");
        SystemSpec cluster = SystemSpec.of(HW.chip("a100-80g"), 64, HW.network("hdr"));
        TrainingBehaviour fsdp = sw("llm-foundry");
        TrainingResult r = step.evaluate(m, 2048, cluster, plan(1, 1, 64, 3, 1, 64, Recompute.FULL, Precision.BF16,
                fsdp));
        double params = m.totalParams();
        // fp32 flat parameters, fp32 gradients and Adam m, v: 16 B per parameter over 64 ranks...
        double sharded = params * (4 + 4 + 8) / 64;
        // ...plus two gathered 16-bit layers, one unsharded fp32 layer gradient and the gathered embedding.
        double layer = (m.attentionParamsPerLayer() + m.mlpParamsPerLayer() + m.normParamsPerLayer());
        double gathered = 2 * layer * 2 + layer * 4 + (m.embeddingParams()) * 2;
        double states = r.weightBytes() + r.gradientBytes() + r.optimizerBytes();
        assertEquals(sharded + gathered, states, 0.02 * states);
    }

    @Test
    void fp8KeepsQuantizedWeightCopiesAndSavesQuantizedGemmInputs() {
        ModelSpec m = ModelCatalog.bundled().model("llama3-8b");
        SystemSpec node = SystemSpec.of(HW.chip("h100-sxm"), 8, HW.defaultNetwork(HW.chip("h100-sxm")));
        TrainingBehaviour mb = sw("megatron-bridge@25.11");
        TrainingResult bf16 = step.evaluate(m, 4096, node, plan(1, 1, 8, 1, 1, 64, Recompute.NONE, Precision.BF16, mb));
        TrainingResult fp8 = step.evaluate(m, 4096, node, plan(1, 1, 8, 1, 1, 64, Recompute.NONE, Precision.FP8, mb));
        assertTrue(fp8.weightBytes() > bf16.weightBytes() * 1.5, "weights + 2 B fp8 copies (value and transpose)");
        assertTrue(fp8.activationBytes() < bf16.activationBytes());
    }

    @Test
    void expertsWholeOnARankLetExpertParallelismSpanTensorParallelRanks() {
        ModelSpec m = ModelCatalog.bundled().model("qwen3-235b-a22b");
        TrainingPlan folded = new TrainingPlan(2, 8, 16, 1, 32, true, 1, 1, 1, 2048, Recompute.AUTO, Precision.FP8,
                sw("megatron-bridge@25.11"));
        assertNull(ShapeRules.training(m, 4096, folded));
        TrainingPlan split = new TrainingPlan(2, 8, 16, 1, 32, true, 1, 1, 1, 2048, Recompute.AUTO, Precision.FP8,
                sw("nemo@24.07"));
        assertEquals("plan.ep: expected a divisor of dp x cp = 16 (expert ranks come out of the data- and "
                + "context-parallel ranks), found 32", ShapeRules.training(m, 4096, split).detail());
        StageParameters p = StageParameters.of(m, folded);
        assertEquals(2 * 16 / 32, p.expertShards(), "tp x dp / ep with expert TP 1");
        assertEquals(16, p.denseShards());
    }
}
