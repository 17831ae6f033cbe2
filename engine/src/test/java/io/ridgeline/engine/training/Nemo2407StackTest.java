package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.network.Placement;
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
 * What NeMo 24.07 does differently from Megatron-Bridge on the same Megatron-core model: its Apex
 * DistributedFusedAdam reduce-scatters gradients in fp32 (grad_sync_dtype defaults to the optimizer's fp32) and keeps
 * the int16 remainder of each fp32 master weight instead of the whole (store_param_remainders), and Megatron-core
 * 0.8's "fused" cross-entropy computes over fp32 copies of the logits (docs/MODEL.md sec. 7).
 */
class Nemo2407StackTest {
    private static final HardwareCatalog HW = TrainingFixtures.HW;
    /** Eight DGX H100 nodes: the data-parallel group crosses the scale-out network. */
    private static final SystemSpec H100 = dgxH100(8);
    private static final ModelSpec LLAMA = ModelCatalog.bundled().model("llama3.1-8b");
    private static final StackCatalog STACKS = StackCatalog.bundled();

    private static SystemSpec dgxH100(int nodes) {
        return SystemSpec.of(HW.chip("h100-sxm"), 8 * nodes, HW.defaultNetwork(HW.chip("h100-sxm")));
    }

    private static TrainingPlan plan(String stack) {
        TrainingBehaviour sw = STACKS.profile(stack).training();
        return new TrainingPlan(1, 1, 64, 1, 1, false, 1, 1, 1, 256, Recompute.NONE, Precision.FP8, sw);
    }

    @Test
    void nemoReduceScattersGradientsInFp32AndMegatronBridgeInBf16() {
        assertEquals(4, STACKS.profile("nemo@24.07").training().reduceBytes());
        assertEquals(2, STACKS.profile("megatron-bridge@25.11").training().reduceBytes());
        CollectiveModel collectives = new CollectiveModel(H100, HW.curve(H100.chip()));
        DataParallelSync sync = new DataParallelSync(collectives);
        Group dp = Placement.group(64, 1, H100.scaleUpDomain());
        TrainingPlan nemo = plan("nemo@24.07");
        StageParameters params = StageParameters.of(LLAMA, nemo);
        // No compute to hide behind: the whole reduce-scatter and all-gather show.
        double nemoSeconds = sync.exposedPerStep(params, nemo, dp, dp, LLAMA.layers(), 0, 0);
        double gather = collectives.allGather(params.dense() * ModelStateMemory.WEIGHT_BYTES, dp);
        assertEquals(collectives.reduceScatter(params.dense() * 4, dp) + gather, nemoSeconds, 1e-9 * nemoSeconds);
        double bridgeSeconds = sync.exposedPerStep(params, plan("megatron-bridge@25.11"), dp, dp, LLAMA.layers(),
                0, 0);
        assertTrue(nemoSeconds > bridgeSeconds * 1.3, nemoSeconds + " vs " + bridgeSeconds);
    }

    @Test
    void nemoLossRunsThroughFp32LogitsLikeTheUnfusedLoss() {
        assertFalse(STACKS.profile("nemo@24.07").training().fusedCrossEntropy());
        assertTrue(STACKS.profile("megatron-bridge@25.11").training().fusedCrossEntropy());
        GemmModel gemm = new GemmModel(H100.chip());
        MemoryBoundOp memory = new MemoryBoundOp(H100.chip());
        HeadTime head = new HeadTime(gemm, memory, new CollectiveModel(H100, HW.curve(H100.chip())));
        Group one = new Group(1, 1, 1);
        double nemo = head.head(LayerShape.of(LLAMA, 8192, plan("nemo@24.07"), one, one, one, false),
                LLAMA.vocab()).memorySeconds();
        double bridge = head.head(LayerShape.of(LLAMA, 8192, plan("megatron-bridge@25.11"), one, one, one, false),
                LLAMA.vocab()).memorySeconds();
        // 40 B against 6 B per logit (plus the final norm, the same in both): more than 4x the traffic.
        assertTrue(nemo > 4 * bridge, nemo + " vs " + bridge);
    }

    @Test
    void nemoKeepsParameterRemaindersInsteadOfFp32MasterWeights() {
        TrainingPlan nemo = plan("nemo@24.07");
        TrainingPlan bridge = plan("megatron-bridge@25.11");
        StageParameters params = StageParameters.of(LLAMA, nemo);
        double nemoBytes = ModelStateMemory.optimizer(params, nemo);
        double bridgeBytes = ModelStateMemory.optimizer(params, bridge);
        // int16 remainder + fp32 m + fp32 v against fp32 master + m + v, both sharded over the 64 DP ranks.
        assertEquals(10.0 / 12, nemoBytes / bridgeBytes, 1e-12);
        assertEquals(params.dense() * 10 / params.denseShards(), nemoBytes, 1e-6 * nemoBytes);
    }
}
