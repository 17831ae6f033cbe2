package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;

/** Shared inputs: GPT-3 175B on 64 A100s (Korthikanti et al. 2022 Table 3 layout). */
final class TrainingFixtures {
    static final HardwareCatalog HW = HardwareCatalog.bundled();

    private TrainingFixtures() {
    }

    static ModelSpec gpt175b() {
        return ModelCatalog.bundled().model("megatron-175b");
    }

    static SystemSpec a100(int gpus) {
        return SystemSpec.of(HW.chip("a100-80g"), gpus, HW.network("hdr"));
    }

    static TrainingPlan plan(int tp, int pp, int dp, boolean sp, int vpp, int mb, int gb, Recompute r) {
        return new TrainingPlan(tp, pp, dp, 1, 1, sp, vpp, 0, mb, gb, r, Precision.BF16, false, false);
    }
}
