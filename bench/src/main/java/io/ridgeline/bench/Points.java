package io.ridgeline.bench;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;

/** The fixed points every benchmark evaluates, so numbers are comparable across runs and machines. */
final class Points {
    static final ModelCatalog MODELS = ModelCatalog.bundled();
    static final HardwareCatalog HARDWARE = HardwareCatalog.bundled();

    /** GPT-3 175B, 2048 tokens, batch 1536 (Narayanan et al. 2021's setting). */
    static final ModelSpec GPT3 = MODELS.model("gpt3-175b");
    static final int SEQ_LEN = 2048;
    static final int GLOBAL_BATCH = 1536;

    /** 1024 A100-80G in 8-GPU NVSwitch nodes on HDR InfiniBand. */
    static final SystemSpec A100_1024 = SystemSpec.of(HARDWARE.chip("a100-80g"), 1024, HARDWARE.network("hdr"));

    /** A Megatron-style plan for it: tp 8 inside the node, 8 stages, dp 16, selective recompute. */
    static final TrainingPlan GPT3_PLAN = new TrainingPlan(8, 8, 16, 1, 1, true, 1, 1, 1, GLOBAL_BATCH,
            Recompute.SELECTIVE, Precision.BF16, true, false);

    private Points() {
    }
}
