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
import io.ridgeline.engine.software.MoeDispatcher;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A device-initiated (DeepEP/HybridEP) dispatcher across scale-up domains sends a token over the scale-out network
 * once per destination domain and forwards it inside the domain; the all-to-all dispatcher sends every routed copy.
 */
class FlexDispatchTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private static final StackCatalog STACKS = StackCatalog.bundled();
    private static final ModelSpec DSV3 = ModelCatalog.bundled().model("deepseek-v3");
    private static final SystemSpec H100 = SystemSpec.of(HW.chip("h100-sxm"), 256,
            HW.defaultNetwork(HW.chip("h100-sxm")));
    private static final Group ONE = new Group(1, 1, 1);

    @Test
    void remoteDomainsCountEachDestinationDomainOnce() {
        // All experts chosen: every other domain is hit exactly once.
        assertEquals(1, ExpertTime.remoteDomainsPerToken(8, 8, 2), 1e-12);
        assertEquals(7, ExpertTime.remoteDomainsPerToken(64, 64, 8), 1e-12);
        // One expert: it lies in another domain with probability (D - 1)/D.
        assertEquals(7.0 / 8, ExpertTime.remoteDomainsPerToken(256, 1, 8), 1e-12);
        // DeepSeek-V3's 8 of 256 experts over 8 domains: C(224, 8)/C(256, 8) = 0.3382 of missing a domain.
        double q = 1;
        for (int i = 0; i < 8; i++) {
            q *= (224.0 - i) / (256 - i);
        }
        assertEquals(7 * (1 - q), ExpertTime.remoteDomainsPerToken(256, 8, 8), 1e-12);
        assertTrue(ExpertTime.remoteDomainsPerToken(256, 8, 8) < 8 * 7.0 / 8);
    }

    private static double exchangeSeconds(String stack, Group ep) {
        TrainingBehaviour sw = STACKS.profile(stack).training();
        TrainingPlan plan = new TrainingPlan(1, 4, 64, 1, 64, false, 1, 3, 1, 512, Recompute.AUTO, Precision.BF16, sw);
        ExpertTime experts = new ExpertTime(new GemmModel(H100.chip()), new MemoryBoundOp(H100.chip()),
                new CollectiveModel(H100, HW.curve(H100.chip())));
        return experts.exchange(LayerShape.of(DSV3, 4096, plan, ONE, ONE, ep, false));
    }

    @Test
    void flexDispatchCrossingNodesMovesLessOverTheScaleOutNetwork() {
        assertEquals(MoeDispatcher.FLEX, STACKS.profile("nemo-automodel").training().moeDispatcher());
        assertEquals(MoeDispatcher.ALLTOALL, STACKS.profile("megatron-bridge@25.11").training().moeDispatcher());
        Group acrossNodes = new Group(64, 8);
        double flex = exchangeSeconds("nemo-automodel", acrossNodes);
        double alltoall = exchangeSeconds("megatron-bridge@25.11", acrossNodes);
        assertTrue(flex > 0 && flex < 0.8 * alltoall, flex + " vs " + alltoall);
        // Inside one domain both move the same bytes over the same links.
        Group inNode = new Group(8, 8);
        assertEquals(exchangeSeconds("megatron-bridge@25.11", inNode), exchangeSeconds("nemo-automodel", inNode),
                1e-15);
    }
}
