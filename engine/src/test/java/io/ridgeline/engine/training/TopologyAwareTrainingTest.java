package io.ridgeline.engine.training;

import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.network.HierarchicalFabric;
import io.ridgeline.engine.network.RingTopology;
import io.ridgeline.engine.network.Topology;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.technology.TechnologyCatalog;
import org.junit.jupiter.api.Test;

import static io.ridgeline.engine.training.TrainingFixtures.a100;
import static io.ridgeline.engine.training.TrainingFixtures.gpt175b;
import static io.ridgeline.engine.training.TrainingFixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The scale-out fabric reaches the step time through the DP and PP collectives that cross nodes. */
class TopologyAwareTrainingTest {
    private static final TechnologyCatalog TECH = TechnologyCatalog.bundled();
    private final TrainingStep step = new TrainingStep();
    // DP 8 across 8 nodes per pipeline stage: the gradient all-reduce crosses the fabric.
    private final TrainingPlan dpHeavy = plan(8, 4, 8, true, 1, 1, 256, Recompute.SELECTIVE);

    private static Topology fatTree(int endpoints, double oversubscription) {
        return HierarchicalFabric.fatTree(endpoints, TECH.link("ib-hdr"), TECH.switchType("quantum-hdr"), 2,
                oversubscription);
    }

    @Test
    void aNonBlockingFatTreeMatchesTheFlatNetwork() {
        SystemSpec flat = a100(256);
        SystemSpec tree = flat.withScaleOutTopology(fatTree(256, 1));
        double a = step.evaluate(gpt175b(), 2048, flat, dpHeavy).stepTimeSeconds();
        double b = step.evaluate(gpt175b(), 2048, tree, dpHeavy).stepTimeSeconds();
        assertEquals(a, b, a * 0.02, "flat " + a + " vs non-blocking fat-tree " + b);
    }

    @Test
    void oversubscriptionSlowsPipelineHopsBetweenLeavesButNotAContiguousRing() {
        SystemSpec tree = a100(256).withScaleOutTopology(fatTree(256, 1));
        SystemSpec thin = a100(256).withScaleOutTopology(fatTree(256, 4));
        TrainingResult full = step.evaluate(gpt175b(), 2048, tree, dpHeavy);
        TrainingResult over = step.evaluate(gpt175b(), 2048, thin, dpHeavy);
        // Pipeline neighbours are 64 GPUs apart: every hop leaves its 32-port leaf and shares 4:1 uplinks.
        assertTrue(over.ppCommSeconds() > 1.5 * full.ppCommSeconds(),
                over.ppCommSeconds() + " vs " + full.ppCommSeconds());
        // The DP ring runs over 8 consecutive nodes: it crosses a leaf boundary only twice, so uplinks suffice; only
        // the small first<->last-stage embedding all-reduce (stride 192) pays the 4:1 uplinks.
        assertTrue(over.dpCommSeconds() < 1.05 * full.dpCommSeconds(),
                over.dpCommSeconds() + " vs " + full.dpCommSeconds());
        assertTrue(over.stepTimeSeconds() > full.stepTimeSeconds());
    }

    @Test
    void aRingOfNodesIsSlowerThanAFatTree() {
        Topology ring = new RingTopology(256, 1, TECH.link("ib-hdr"));
        SystemSpec onRing = a100(256).withScaleOutTopology(ring);
        SystemSpec onTree = a100(256).withScaleOutTopology(fatTree(256, 1));
        assertTrue(step.evaluate(gpt175b(), 2048, onRing, dpHeavy).stepTimeSeconds()
                >= step.evaluate(gpt175b(), 2048, onTree, dpHeavy).stepTimeSeconds());
    }
}
