package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.Chip;
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

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Megatron-core 0.15's token dispatchers as the MoE layer pays for them: the all-to-all dispatcher sorts the received
 * tokens by local expert and restores them (two passes over every routed copy, each way), the flex dispatcher permutes
 * inside its kernels; every dropless dispatcher makes the host wait once per MoE layer forward for the token counts,
 * never in backward.
 */
class MoeDispatchCostsTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private static final StackCatalog STACKS = StackCatalog.bundled();
    private static final ModelSpec QWEN3_30B = ModelCatalog.bundled().model("qwen3-30b-a3b");
    private static final Chip B200 = HW.chip("b200");
    private static final SystemSpec EIGHT = SystemSpec.of(B200, 8, HW.defaultNetwork(B200));
    private static final Group ONE = new Group(1, 1, 1);

    private static TrainingPlan plan(String stack, int ep, Precision precision) {
        TrainingBehaviour sw = STACKS.profile(stack).training();
        return new TrainingPlan(1, 1, 8, 1, ep, false, 1, 1, 4, 512, Recompute.AUTO, precision, sw);
    }

    private static LayerShape shape(TrainingPlan plan) {
        return LayerShape.of(QWEN3_30B, 4096, plan, ONE, ONE, new Group(plan.ep(), Math.min(plan.ep(), 8)), true);
    }

    private static ExpertTime experts() {
        return new ExpertTime(new GemmModel(B200), new MemoryBoundOp(B200), new CollectiveModel(EIGHT,
                HW.curve(B200)));
    }

    @Test
    void allToAllDispatcherSortsReceivedTokensByLocalExpert() {
        LayerShape alltoall = shape(plan("megatron-bridge@25.11", 8, Precision.BF16));
        LayerShape flex = shape(plan("nemo-automodel", 8, Precision.BF16));
        assertTrue(ExpertTime.sortsByLocalExpert(alltoall));
        assertFalse(ExpertTime.sortsByLocalExpert(flex));
        // 16 local experts: the sort and the restore each read and write every routed copy (16-bit) once more.
        double copies = alltoall.expertTokens() * QWEN3_30B.moe().topK();
        double sortBytes = 2 * 2 * copies * QWEN3_30B.hidden() * 2;
        double routerBytes = alltoall.expertTokens() * QWEN3_30B.moe().experts() * 4 * 3;
        MemoryBoundOp reference = new MemoryBoundOp(B200);
        double expected = reference.seconds(2 * sortBytes + routerBytes, copies * QWEN3_30B.hidden(), 6);
        assertEquals(expected, experts().memory(alltoall), 1e-15);
        double withoutSort = reference.seconds(sortBytes + routerBytes, copies * QWEN3_30B.hidden(), 4);
        assertEquals(withoutSort, experts().memory(flex), 1e-15);
        assertEquals(ExpertTime.forwardKernels(flex) + ExpertTime.SORT_KERNELS, ExpertTime.forwardKernels(alltoall),
                1e-12);
    }

    @Test
    void oneLocalExpertNeedsNoSort() {
        // EP 128: each rank holds one expert, the received tokens are already grouped.
        TrainingPlan wide = new TrainingPlan(1, 1, 128, 1, 128, false, 1, 1, 1, 512, Recompute.AUTO, Precision.BF16,
                STACKS.profile("megatron-bridge@25.11").training());
        assertFalse(ExpertTime.sortsByLocalExpert(LayerShape.of(QWEN3_30B, 4096, wide, ONE, ONE, new Group(128, 8),
                true)));
    }

    @Test
    void fusedMoePathUsesTheFlexPermutation() {
        LayerShape fused = shape(plan("megatron-bridge@26.06", 8, Precision.FP8));
        assertTrue(fused.moeFastPath());
        assertFalse(ExpertTime.sortsByLocalExpert(fused));
    }

    @Test
    void hostWaitsForTokenCountsOncePerLayerForwardOnly() {
        GemmModel gemm = new GemmModel(B200);
        LayerTime layers = new LayerTime(gemm, new MemoryBoundOp(B200), new CollectiveModel(EIGHT, HW.curve(B200)));
        for (String stack : new String[]{"megatron-bridge@25.11", "nemo-automodel"}) {
            for (int ep : new int[]{1, 8}) {
                LayerShape s = shape(plan(stack, ep, Precision.BF16));
                assertEquals(ExpertTime.SYNC_KERNELS, layers.forward(s).stallKernels(), 0, stack + " ep" + ep);
                assertEquals(0, layers.backward(s, 0, false).stallKernels(), 0, stack + " ep" + ep);
                // A recomputed forward goes through the dispatcher again and waits again.
                assertEquals(ExpertTime.SYNC_KERNELS, layers.backward(s, 1, false).stallKernels(), 1e-12);
            }
        }
    }

    @Test
    void evaluatingARepeatedMoePointAllocatesOnlyItsResult() {
        // The dispatcher mechanisms are static arithmetic on the shape: an MoE evaluation stays within the dense
        // path's allocation bound (TrainingEnergyTest: the result record and the Cost values of the composition).
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        TrainingStep step = new TrainingStep(HW);
        TrainingPlan plan = plan("megatron-bridge@25.11", 8, Precision.FP8);
        for (int i = 0; i < 20_000; i++) {
            step.evaluate(QWEN3_30B, 4096, EIGHT, plan);
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            step.evaluate(QWEN3_30B, 4096, EIGHT, plan);
        }
        double perEval = (double) (threads.getThreadAllocatedBytes(id) - before) / n;
        System.out.println("MoE training: bytes allocated per evaluation " + perEval);
        assertTrue(perEval < 2048, "allocates " + perEval + " B per evaluation");
    }
}
