package io.ridgeline.engine.training;

import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static io.ridgeline.engine.training.TrainingFixtures.gpt175b;
import static io.ridgeline.engine.training.TrainingFixtures.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Korthikanti et al. 2022 eqs. 1-6, per layer, 16-bit activations. */
class ActivationMemoryTest {
    private final ModelSpec m = gpt175b();
    private final double s = 2048;
    private final double h = 12288;
    private final double a = 96;

    @Test
    void tensorParallelOnlyMatchesEquation2() {
        for (int t : new int[]{1, 2, 4, 8}) {
            for (int b : new int[]{1, 4}) {
                TrainingPlan p = plan(t, 1, 1, false, 1, b, b, Recompute.NONE);
                double expected = s * b * h * (10 + 24.0 / t + 5 * a * s / (h * t));
                assertEquals(expected, ActivationMemory.perLayerBytes(m, 2048, p), expected * 1e-12);
            }
        }
    }

    @Test
    void sequenceParallelMatchesEquation4() {
        TrainingPlan p = plan(8, 1, 1, true, 1, 1, 1, Recompute.NONE);
        double expected = s * h / 8 * (34 + 5 * a * s / h);
        assertEquals(expected, ActivationMemory.perLayerBytes(m, 2048, p), expected * 1e-12);
    }

    @Test
    void selectiveWithSequenceParallelKeeps34sbhOverT() {
        TrainingPlan p = plan(8, 1, 1, true, 1, 2, 2, Recompute.SELECTIVE);
        double expected = 34 * s * 2 * h / 8;
        assertEquals(expected, ActivationMemory.perLayerBytes(m, 2048, p), expected * 1e-12);
    }

    @Test
    void fullRecomputeKeepsOnlyTheLayerInput() {
        TrainingPlan noSp = plan(8, 1, 1, false, 1, 1, 1, Recompute.FULL);
        TrainingPlan sp = plan(8, 1, 1, true, 1, 1, 1, Recompute.FULL);
        assertEquals(2 * s * h, ActivationMemory.perLayerBytes(m, 2048, noSp), 1e-6);
        assertEquals(2 * s * h / 8, ActivationMemory.perLayerBytes(m, 2048, sp), 1e-6);
    }

    @Test
    void interleavingAddsTheKorthikantiFactor() {
        TrainingPlan plain = plan(8, 8, 1, true, 1, 1, 64, Recompute.SELECTIVE);
        TrainingPlan interleaved = plan(8, 8, 1, true, 3, 1, 64, Recompute.SELECTIVE);
        double ratio = ActivationMemory.firstStageBytes(m, 2048, interleaved)
                / ActivationMemory.firstStageBytes(m, 2048, plain);
        assertEquals(1 + 7.0 / (8 * 3), ratio, 1e-12);
    }

    @Test
    void firstStageHoldsAtMostThePipelineDepthOfMicroBatches() {
        TrainingPlan few = plan(8, 8, 1, false, 1, 1, 2, Recompute.NONE);
        TrainingPlan many = plan(8, 8, 1, false, 1, 1, 64, Recompute.NONE);
        double perLayer = ActivationMemory.perLayerBytes(m, 2048, few);
        assertEquals(perLayer * 12 * 2, ActivationMemory.firstStageBytes(m, 2048, few), 1);
        assertEquals(perLayer * 12 * 8, ActivationMemory.firstStageBytes(m, 2048, many), 1);
        assertTrue(ActivationMemory.firstStageBytes(m, 2048, many) > ActivationMemory.firstStageBytes(m, 2048, few));
    }
}
