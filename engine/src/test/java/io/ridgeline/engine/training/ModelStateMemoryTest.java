package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ModelStateMemoryTest {
    private static TrainingPlan plan(int zero, boolean modernDdp) {
        return new TrainingPlan(8, 8, 4, 1, 1, true, 1, zero, 1, 64, Recompute.SELECTIVE, Precision.BF16, modernDdp,
                true);
    }

    private static double bytesPerParam(TrainingPlan p) {
        return ModelStateMemory.weightBytes(1, p) + ModelStateMemory.gradientBytes(1, p)
                + ModelStateMemory.optimizerBytes(1, p);
    }

    @Test
    void legacyMegatronKeepsEighteenBytesPerParameter() {
        // Korthikanti et al. 2022 Fig. 1: 2 (weights) + 4 (fp32 main_grad) + 12 (master, m, v).
        assertEquals(18, bytesPerParam(plan(0, false)), 1e-12);
    }

    @Test
    void megatronCoreDdpReducesGradientsInTheParameterDtype() {
        assertEquals(16, bytesPerParam(plan(0, true)), 1e-12);
    }

    @Test
    void zeroStagesShardOptimizerThenGradientsThenWeights() {
        assertEquals(2 + 2 + 12.0 / 4, bytesPerParam(plan(1, true)), 1e-12);
        assertEquals(2 + (2 + 12.0) / 4, bytesPerParam(plan(2, true)), 1e-12);
        assertEquals((2 + 2 + 12.0) / 4, bytesPerParam(plan(3, true)), 1e-12);
    }
}
