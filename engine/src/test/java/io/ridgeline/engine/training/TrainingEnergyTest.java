package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static io.ridgeline.engine.training.TrainingFixtures.HW;
import static io.ridgeline.engine.training.TrainingFixtures.a100;
import static io.ridgeline.engine.training.TrainingFixtures.gpt175b;
import static io.ridgeline.engine.training.TrainingFixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bottom-up training energy (MODEL.md sec. 8): bounds, monotonicity in bytes, the static floor, no allocation. */
class TrainingEnergyTest {
    private final TrainingStep step = new TrainingStep();
    private static final TrainingPlan GPT3_64 = plan(8, 8, 1, true, 1, 1, 64, Recompute.SELECTIVE);

    @Test
    void energyLiesBetweenStaticPowerAndTdpTimesTime() {
        for (String id : new String[]{"a100-80g", "h100-sxm", "b200", "mi300x"}) {
            Chip chip = HW.chip(id);
            SystemSpec sys = SystemSpec.of(chip, 64, HW.defaultNetwork(chip));
            TrainingResult r = step.evaluate(gpt175b(), 2048, sys, GPT3_64);
            double gpuSeconds = r.stepTimeSeconds() * 64;
            assertTrue(r.energyJoules() <= chip.tdpWatts() * gpuSeconds * (1 + 1e-12), id);
            assertTrue(r.energyJoules() > 0.25 * chip.tdpWatts() * gpuSeconds, id);
            assertEquals(r.energyJoules() / r.stepTimeSeconds(), r.averagePowerWatts(), 1e-9 * r.averagePowerWatts());
            assertTrue(r.dramBytes() > 0 && r.networkBytes() > 0, id);
        }
    }

    @Test
    void costlierDramBitsCostMoreEnergyAtTheSameTime() {
        SystemSpec hbm2e = a100(64);
        Chip chip = hbm2e.chip();
        // Same bandwidth, HBM2's 3.9 pJ/bit instead of HBM2e's 3.5: same time, more joules.
        SystemSpec hbm2 = hbm2e.withChip(chip.withMemory("HBM2", chip.memoryBytes(), chip.memoryBytesPerSecond()));
        TrainingResult a = step.evaluate(gpt175b(), 2048, hbm2e, GPT3_64);
        TrainingResult b = step.evaluate(gpt175b(), 2048, hbm2, GPT3_64);
        assertEquals(a.stepTimeSeconds(), b.stepTimeSeconds(), 1e-12);
        assertEquals(a.dramBytes(), b.dramBytes(), 1e-6 * a.dramBytes());
        System.out.printf("gpt3 64xA100: %.0f W/GPU%n", a.averagePowerWatts() / 64);
        assertTrue(b.energyJoules() > a.energyJoules());
    }

    @Test
    void fullRecomputationMovesMoreBytesAndCostsMoreEnergy() {
        TrainingResult sel = step.evaluate(gpt175b(), 2048, a100(64), GPT3_64);
        TrainingResult full = step.evaluate(gpt175b(), 2048, a100(64), plan(8, 8, 1, true, 1, 1, 64, Recompute.FULL));
        assertTrue(full.dramBytes() > sel.dramBytes());
        assertTrue(full.energyJoules() > sel.energyJoules());
    }

    @Test
    void aStepWaitingOnAStarvedNetworkDrawsNearStaticPower() {
        ModelSpec m = ModelCatalog.bundled().model("megatron-1.7b");
        TrainingPlan dp = plan(1, 1, 64, false, 1, 1, 64, Recompute.NONE);
        SystemSpec slow = a100(64).withScaleOut(HW.network("hdr").withGbitPerSecond(0.05));
        TrainingResult r = step.evaluate(m, 2048, slow, dp);
        double perGpuWatts = r.averagePowerWatts() / 64;
        assertTrue(perGpuWatts < 1.1 * 0.25 * 400, "power " + perGpuWatts);
    }

    @Test
    void evaluatingARepeatedPointAllocatesOnlyItsResult() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        SystemSpec sys = a100(64);
        for (int i = 0; i < 20_000; i++) {
            step.evaluate(gpt175b(), 2048, sys, GPT3_64);
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            step.evaluate(gpt175b(), 2048, sys, GPT3_64);
        }
        double perEval = (double) (threads.getThreadAllocatedBytes(id) - before) / n;
        System.out.println("training: bytes allocated per evaluation " + perEval);
        // The result record (~260 B) and the Cost values of the composition; escape analysis removes most of them.
        assertTrue(perEval < 2048, "allocates " + perEval + " B per evaluation");
    }
}
