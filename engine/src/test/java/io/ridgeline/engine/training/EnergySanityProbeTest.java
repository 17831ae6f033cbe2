package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.inference.InferenceStep;
import io.ridgeline.engine.inference.InferenceWorkload;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.workload.ModelCatalog;
import org.junit.jupiter.api.Test;

import static io.ridgeline.engine.training.TrainingFixtures.HW;
import static io.ridgeline.engine.training.TrainingFixtures.gpt175b;
import static io.ridgeline.engine.training.TrainingFixtures.plan;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The docs/MODEL.md sec. 6 sanity table: prints the numbers and keeps them inside broad physical bounds. */
class EnergySanityProbeTest {
    @Test
    void sanityTable() {
        TrainingStep step = new TrainingStep();
        for (String id : new String[]{"a100-80g", "h100-sxm", "b200"}) {
            Chip c = HW.chip(id);
            SystemSpec sys = SystemSpec.of(c, 1024, HW.defaultNetwork(c));
            TrainingResult r = step.evaluate(gpt175b(), 2048, sys, plan(8, 8, 16, true, 1, 1, 1536, Recompute.SELECTIVE));
            double perToken = r.energyJoules() / (1536.0 * 2048);
            System.out.printf("gpt3-175b train %s: %.2f J/token, %.0f W/GPU, MFU %.2f%n", id, perToken,
                    r.averagePowerWatts() / 1024, r.mfuFraction());
            assertTrue(perToken > 0.1 && perToken < 20, id);
        }
        InferenceStep inf = new InferenceStep();
        Chip h = HW.chip("h100-sxm");
        SystemSpec node = SystemSpec.of(h, 8, HW.defaultNetwork(h));
        for (int batch : new int[]{1, 16, 64}) {
            InferenceResult r = inf.evaluate(ModelCatalog.bundled().model("llama2-70b"), node,
                    InferencePlan.tensorParallel(8), InferenceWorkload.staticBatch(batch, 512, 512));
            System.out.printf("llama2-70b decode h100 tp8 batch %d: %.3f J/token, %.0f W/GPU%n", batch,
                    r.joulesPerOutputToken(), r.averagePowerWatts());
            assertTrue(r.joulesPerOutputToken() > 0.01 && r.joulesPerOutputToken() < 100);
        }
    }
}
