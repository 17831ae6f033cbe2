package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.ops.MemoryBoundOp;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * torchtitan's op-level selective activation checkpointing: the save list holds aten.mm (every second one recomputed)
 * and the attention core, not the FP8 linears' aten._scaled_mm, so a selective FP8 step re-runs every linear GEMM of
 * its blocks; Megatron's selective recomputation with a fused attention kernel re-runs nothing.
 */
class OpLevelRecomputeTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private static final StackCatalog STACKS = StackCatalog.bundled();
    private static final ModelSpec LLAMA = ModelCatalog.bundled().model("llama3.1-8b");
    private static final Group ONE = new Group(1, 1, 1);
    private static final SystemSpec H200 = SystemSpec.of(HW.chip("h200"), 8, HW.defaultNetwork(HW.chip("h200")));

    private static TrainingPlan plan(String stack, Precision p, Recompute r) {
        TrainingBehaviour sw = STACKS.profile(stack).training();
        return new TrainingPlan(1, 1, 8, 1, 1, false, 1, 3, 2, 16, r, p, sw);
    }

    private static LayerShape shape(TrainingPlan p) {
        return LayerShape.of(LLAMA, 8192, p, ONE, ONE, ONE, false);
    }

    /** Extra backward GEMM time of SELECTIVE over NONE for one layer. */
    private static double extraGemmSeconds(String stack, Precision p) {
        LayerTime lt = new LayerTime(new GemmModel(H200.chip()), new MemoryBoundOp(H200.chip()),
                new CollectiveModel(H200, HW.curve(H200.chip())));
        LayerShape s = shape(plan(stack, p, Recompute.SELECTIVE));
        return lt.backward(s, 0, true).gemmSeconds() - lt.backward(s, 0, false).gemmSeconds();
    }

    /** Forward GEMM time of the layer's linears (its forward GEMMs without the attention core). */
    private static double linearForwardSeconds(String stack, Precision p) {
        GemmModel gemm = new GemmModel(H200.chip());
        MemoryBoundOp mem = new MemoryBoundOp(H200.chip());
        LayerTime lt = new LayerTime(gemm, mem, new CollectiveModel(H200, HW.curve(H200.chip())));
        LayerShape s = shape(plan(stack, p, Recompute.SELECTIVE));
        return lt.forward(s).gemmSeconds() - new AttentionTime(gemm, mem).gemmForward(s);
    }

    @Test
    void onlyTorchtitanHasTheOpLevelPolicy() {
        assertTrue(STACKS.profile("torchtitan").training().opLevelSelectiveRecompute());
        for (String id : new String[] {"pytorch-fsdp", "megatron-bridge@25.11", "nemo@24.07", "llm-foundry",
                "megatron-lm@2021", "nemo-automodel"}) {
            assertFalse(STACKS.profile(id).training().opLevelSelectiveRecompute(), id);
        }
    }

    @Test
    void selectiveFp8RecomputesEveryLinearOfTheBlock() {
        double linear = linearForwardSeconds("torchtitan", Precision.FP8);
        assertTrue(linear > 0);
        assertEquals(linear, extraGemmSeconds("torchtitan", Precision.FP8), 1e-12 * linear);
    }

    @Test
    void selectiveBf16RecomputesEverySecondMatmul() {
        double linear = linearForwardSeconds("torchtitan", Precision.BF16);
        assertEquals(0.5 * linear, extraGemmSeconds("torchtitan", Precision.BF16), 1e-12 * linear);
    }

    @Test
    void megatronSelectiveWithFusedAttentionRecomputesNothing() {
        assertEquals(0, extraGemmSeconds("megatron-bridge@25.11", Precision.FP8), 0);
    }

    @Test
    void aSelectiveTorchtitanStepIsSlowerThanOneWithoutRecomputation() {
        TrainingStep step = new TrainingStep(HW);
        double none = step.evaluate(LLAMA, 8192, H200, plan("torchtitan", Precision.FP8, Recompute.NONE))
                .stepTimeSeconds();
        double selective = step.evaluate(LLAMA, 8192, H200, plan("torchtitan", Precision.FP8, Recompute.SELECTIVE))
                .stepTimeSeconds();
        double full = step.evaluate(LLAMA, 8192, H200, plan("torchtitan", Precision.FP8, Recompute.FULL))
                .stepTimeSeconds();
        assertTrue(selective > none * 1.1, selective + " vs " + none);
        assertTrue(selective < full, selective + " vs " + full);
    }
}
