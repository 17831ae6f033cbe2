package io.ridgeline.engine.training;

import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PlanSpaceTest {
    /** The default training stack (sweeps/reference.yaml): fused attention, DP overlap. */
    private static final TrainingBehaviour BRIDGE = StackCatalog.bundled().profile("megatron-bridge@25.11").training();
    private static SweepSpec spec(String parallelism) {
        return new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled()).parse("p.yaml", String.join("\n",
                "name: p", "models: [llama2-70b]", "phases: [{phase: training, seq_len: [4096], global_batch: [1024]}]",
                "hardware: {presets: [h100-sxm]}", "cluster: {gpu_count: [512]}", "parallelism: " + parallelism, ""));
    }

    @Test
    void enumeratesExactlyTheValidFactorisationsOfTheCluster() {
        SweepSpec s = spec("{tp: [1, 2, 4, 8, 16], pp: [1, 2, 4, 8, 16, 32], cp: [1, 2], micro_batch: [1, 2, 4], "
                + "sp: [true, false], recompute: [selective, full]}");
        ModelSpec m = ModelCatalog.bundled().model("llama2-70b");
        TrainingPlan[] plans = PlanSpace.enumerate(m, 4096, 512, 1024, s.parallelism(), BRIDGE);
        Set<String> distinct = new HashSet<>();
        for (TrainingPlan p : plans) {
            assertEquals(512, p.gpus(), p.toString());
            assertNull(ShapeRules.training(m, 4096, p), p.toString());
            assertTrue(distinct.add(p.toString()), "duplicate " + p);
        }
        // Brute force over the same lists: every valid combination must be there.
        int expected = 0;
        for (int tp : new int[]{1, 2, 4, 8, 16}) {
            for (int pp : new int[]{1, 2, 4, 8, 16, 32}) {
                for (int cp : new int[]{1, 2}) {
                    if (512 % (tp * pp * cp) != 0) {
                        continue;
                    }
                    int dp = 512 / (tp * pp * cp);
                    for (int mb : new int[]{1, 2, 4}) {
                        for (boolean sp : new boolean[]{true, false}) {
                            if (tp == 1 && sp) {
                                continue;
                            }
                            TrainingPlan p = new TrainingPlan(tp, pp, dp, cp, 1, sp, 1, 1, mb, 1024,
                                    io.ridgeline.engine.parallelism.Recompute.FULL,
                                    io.ridgeline.engine.hardware.Precision.BF16, true, true);
                            if (ShapeRules.training(m, 4096, p) == null) {
                                expected += 2; // selective and full
                            }
                        }
                    }
                }
            }
        }
        assertTrue(expected > 0);
        assertEquals(expected, plans.length);
    }

    @Test
    void denseModelsGetNoExpertParallelism() {
        SweepSpec s = spec("{tp: [8], pp: [8], ep: [1, 2, 4]}");
        TrainingPlan[] plans = PlanSpace.enumerate(ModelCatalog.bundled().model("llama2-70b"), 4096, 512, 1024,
                s.parallelism(), BRIDGE);
        for (TrainingPlan p : plans) {
            assertEquals(1, p.ep());
        }
        assertTrue(plans.length > 0);
    }
}
