package io.ridgeline.engine.training;

import io.ridgeline.engine.evaluation.Bottleneck;
import io.ridgeline.engine.evaluation.Infeasibility;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.ridgeline.engine.training.TrainingFixtures.HW;
import static io.ridgeline.engine.training.TrainingFixtures.a100;
import static io.ridgeline.engine.training.TrainingFixtures.gpt175b;
import static io.ridgeline.engine.training.TrainingFixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TrainingStepPropertiesTest {
    private final TrainingStep step = new TrainingStep();

    /** Random well-shaped plans for a few models on 8-64 A100s. */
    private List<Object[]> randomPoints(long seed, int count) {
        Random rnd = new Random(seed);
        String[] models = {"megatron-1.7b", "megatron-7.5b", "megatron-22b", "llama2-13b", "megatron-175b"};
        int[] pow = {1, 2, 4, 8};
        List<Object[]> out = new ArrayList<>();
        while (out.size() < count) {
            ModelSpec m = ModelCatalog.bundled().model(models[rnd.nextInt(models.length)]);
            int tp = pow[rnd.nextInt(4)];
            int pp = pow[rnd.nextInt(4)];
            int dp = pow[rnd.nextInt(4)];
            int mb = pow[rnd.nextInt(3)];
            int gb = dp * mb * pp * (1 + rnd.nextInt(4));
            Recompute r = Recompute.values()[rnd.nextInt(3)];
            TrainingPlan p = plan(tp, pp, dp, tp > 1 && rnd.nextBoolean(), 1, mb, gb, r);
            if (ShapeRules.training(m, 2048, p) == null) {
                out.add(new Object[]{m, p});
            }
        }
        return out;
    }

    @Test
    void moreBandwidthOrComputeIsNeverSlower() {
        for (Object[] point : randomPoints(7, 200)) {
            ModelSpec m = (ModelSpec) point[0];
            TrainingPlan p = (TrainingPlan) point[1];
            SystemSpec base = a100(p.gpus());
            double t = step.evaluate(m, 2048, base, p).stepTimeSeconds();
            Chip chip = base.chip();
            SystemSpec fasterMemory = base.withChip(chip.withMemory(chip.memoryType(), chip.memoryBytes(),
                    chip.memoryBytesPerSecond() * 1.5));
            SystemSpec fasterCompute = base.withChip(chip.withComputeScaled(1.5));
            SystemSpec fasterLinks = base.withScaleUpBytesPerSecond(base.scaleUpBytesPerSecond() * 2)
                    .withScaleOut(base.scaleOut().withGbitPerSecond(400));
            String what = m.name() + " " + p;
            assertTrue(step.evaluate(m, 2048, fasterMemory, p).stepTimeSeconds() <= t * (1 + 1e-12), what);
            assertTrue(step.evaluate(m, 2048, fasterCompute, p).stepTimeSeconds() <= t * (1 + 1e-12), what);
            assertTrue(step.evaluate(m, 2048, fasterLinks, p).stepTimeSeconds() <= t * (1 + 1e-12), what);
        }
    }

    @Test
    void anInfeasiblePlanStaysInfeasibleWithLessMemory() {
        int infeasible = 0;
        for (Object[] point : randomPoints(11, 200)) {
            ModelSpec m = (ModelSpec) point[0];
            TrainingPlan p = (TrainingPlan) point[1];
            SystemSpec base = a100(p.gpus());
            TrainingResult r = step.evaluate(m, 2048, base, p);
            if (r.feasible()) {
                continue;
            }
            infeasible++;
            Chip small = base.chip().withMemory("HBM2", base.chip().memoryBytes() / 2,
                    base.chip().memoryBytesPerSecond());
            TrainingResult smaller = step.evaluate(m, 2048, base.withChip(small), p);
            assertEquals(Infeasibility.MEMORY_CAPACITY, smaller.infeasibility(), m.name() + " " + p);
        }
        assertTrue(infeasible > 5, "the sample should contain infeasible plans, had " + infeasible);
    }

    @Test
    void memoryCapacityReasonCarriesTheNumbers() {
        ModelSpec m = gpt175b();
        TrainingPlan p = plan(1, 1, 8, false, 1, 1, 8, Recompute.NONE);
        TrainingResult r = step.evaluate(m, 2048, a100(8), p);
        assertFalse(r.feasible());
        assertEquals(Infeasibility.MEMORY_CAPACITY, r.infeasibility());
        assertEquals(Bottleneck.MEMORY_CAPACITY, r.bottleneck());
        assertTrue(r.detail().matches("needs [0-9.]+ GiB per device but has 80.0 GiB"), r.detail());
        assertTrue(r.totalMemoryBytes() > r.memoryCapacityBytes());
        // A near miss does not read "needs 40.0 GiB but has 40.0 GiB".
        double gib = 1L << 30;
        assertEquals("needs 40.03 GiB per device but has 40.00 GiB", TrainingResult.memoryDetail(40.03 * gib, 40 * gib));
        assertEquals("needs 82.9 GiB per device but has 80.0 GiB", TrainingResult.memoryDetail(82.9 * gib, 80 * gib));
    }

    @Test
    void breakdownAddsUpToTheStepTime() {
        for (Object[] point : randomPoints(3, 50)) {
            ModelSpec m = (ModelSpec) point[0];
            TrainingPlan p = (TrainingPlan) point[1];
            TrainingResult r = step.evaluate(m, 2048, a100(p.gpus()), p);
            double sum = r.computeSeconds() + r.memoryBoundSeconds() + r.tpCommSeconds() + r.cpCommSeconds()
                    + r.epCommSeconds() + r.ppCommSeconds() + r.dpCommSeconds() + r.bubbleSeconds()
                    + r.overheadSeconds();
            assertEquals(r.stepTimeSeconds(), sum, r.stepTimeSeconds() * 1e-9, m.name() + " " + p);
            assertTrue(r.mfuFraction() > 0 && r.mfuFraction() < 1, "mfu " + r.mfuFraction());
            assertTrue(r.hfuFraction() >= r.mfuFraction());
        }
    }

    @Test
    void fullRecomputeCostsAboutOneExtraForward() {
        ModelSpec m = gpt175b();
        TrainingResult none = step.evaluate(m, 2048, a100(64), plan(8, 8, 1, true, 1, 1, 64, Recompute.SELECTIVE));
        TrainingResult full = step.evaluate(m, 2048, a100(64), plan(8, 8, 1, true, 1, 1, 64, Recompute.FULL));
        double ratio = full.stepTimeSeconds() / none.stepTimeSeconds();
        // Korthikanti et al. 2022 Table 4: 27.2 ms vs 20.3 ms per layer, a ratio of 1.34.
        assertTrue(ratio > 1.2 && ratio < 1.45, "full/selective = " + ratio);
    }

    @Test
    void illShapedPlansAreValuesWithTheBrokenRule() {
        ModelSpec m = gpt175b();
        TrainingResult heads = step.evaluate(m, 2048, a100(40), plan(5, 8, 1, false, 1, 1, 64, Recompute.FULL));
        assertEquals(Infeasibility.PLAN_SHAPE, heads.infeasibility());
        assertEquals("plan.tp: expected a divisor of the model's heads (96), found 5", heads.detail());
        TrainingResult gpus = step.evaluate(m, 2048, a100(128), plan(8, 8, 1, false, 1, 1, 64, Recompute.FULL));
        assertEquals(Infeasibility.GPU_COUNT, gpus.infeasibility());
        assertEquals("plan uses 64 GPUs but the system has 128", gpus.detail());
        TrainingResult batch = step.evaluate(m, 2048, a100(128), plan(8, 8, 2, false, 1, 3, 64, Recompute.FULL));
        assertEquals("plan.global_batch: expected a multiple of dp x micro_batch = 6, found 64", batch.detail());
    }

    @Test
    void narrowFormatsTheChipLacksAreIllShapedNotEmulated() {
        ModelSpec m = gpt175b();
        TrainingPlan bf16 = plan(8, 8, 1, true, 1, 1, 64, Recompute.SELECTIVE);
        for (Precision p : new Precision[]{Precision.FP8, Precision.FP4}) {
            TrainingPlan narrow = new TrainingPlan(8, 8, 1, 1, 1, true, 1, 0, 1, 64, Recompute.SELECTIVE, p, false,
                    false);
            TrainingResult r = step.evaluate(m, 2048, a100(64), narrow);
            assertEquals(Infeasibility.PLAN_SHAPE, r.infeasibility());
            assertEquals("precision: expected a format a100-80g runs natively, found " + p.id(), r.detail());
        }
        SystemSpec h100 = SystemSpec.of(HW.chip("h100-sxm"), 64, HW.network("ndr"));
        TrainingPlan fp4 = new TrainingPlan(8, 8, 1, 1, 1, true, 1, 0, 1, 64, Recompute.SELECTIVE, Precision.FP4,
                false, false);
        assertEquals(Infeasibility.PLAN_SHAPE, step.evaluate(m, 2048, h100, fp4).infeasibility());
        TrainingPlan fp8 = new TrainingPlan(8, 8, 1, 1, 1, true, 1, 0, 1, 64, Recompute.SELECTIVE, Precision.FP8,
                false, false);
        assertTrue(step.evaluate(m, 2048, h100, fp8).feasible());
        assertTrue(step.evaluate(m, 2048, h100, bf16).feasible());
    }

    @Test
    void h100IsFasterThanA100OnTheSamePlan() {
        ModelSpec m = gpt175b();
        TrainingPlan p = plan(8, 8, 1, true, 1, 1, 64, Recompute.SELECTIVE);
        SystemSpec h100 = SystemSpec.of(HW.chip("h100-sxm"), 64, HW.network("ndr"));
        double a = step.evaluate(m, 2048, a100(64), p).stepTimeSeconds();
        double h = step.evaluate(m, 2048, h100, p).stepTimeSeconds();
        assertTrue(a / h > 2 && a / h < 3.5, "A100/H100 speed-up " + a / h);
    }
}
