package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bottom-up inference energy (MODEL.md sec. 8). */
class InferenceEnergyTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private static final ModelSpec L70 = ModelCatalog.bundled().model("llama2-70b");
    private final InferenceStep step = new InferenceStep();

    private static SystemSpec node(String chip) {
        Chip c = HW.chip(chip);
        return SystemSpec.of(c, 8, HW.defaultNetwork(c));
    }

    @Test
    void energyStaysWithinStaticAndTdpAndGrowsWithBatchWork() {
        SystemSpec h100 = node("h100-sxm");
        InferencePlan tp4 = InferencePlan.tensorParallel(4);
        double last = 0;
        for (int batch : new int[]{1, 8, 64}) {
            InferenceResult r = step.evaluate(L70, h100, tp4, InferenceWorkload.staticBatch(batch, 512, 256));
            double gpuSeconds = r.e2eLatencySeconds() * 4;
            assertTrue(r.energyJoules() <= 700 * gpuSeconds * (1 + 1e-12));
            assertTrue(r.energyJoules() >= 0.25 * 700 * gpuSeconds);
            assertTrue(r.energyJoules() > last, "batch " + batch);
            assertTrue(r.dramBytes() > 0 && r.networkBytes() > 0);
            last = r.energyJoules();
        }
    }

    @Test
    void computeBoundPrefillDrawsNearTdpAndSmallBatchDecodeFarLess() {
        SystemSpec h100 = node("h100-sxm");
        InferencePlan tp8 = InferencePlan.tensorParallel(8);
        InferenceResult prefill = step.evaluate(L70, h100, tp8, InferenceWorkload.staticBatch(32, 4096, 1));
        InferenceResult decode = step.evaluate(L70, h100, tp8, InferenceWorkload.staticBatch(1, 128, 512));
        System.out.printf("llama2-70b tp8 H100: prefill %.0f W/GPU, decode b1 %.0f W/GPU%n",
                prefill.averagePowerWatts(), decode.averagePowerWatts());
        assertTrue(prefill.averagePowerWatts() > 0.65 * 700, "prefill " + prefill.averagePowerWatts());
        assertTrue(decode.averagePowerWatts() < 0.6 * 700, "decode " + decode.averagePowerWatts());
    }
}
