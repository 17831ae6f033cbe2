package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * A checkpoint served as shipped (ServingBehaviour.mxfp4MoeW4a16): a model whose published checkpoint holds its routed
 * experts in MXFP4 and every other layer in bf16 (GPT-OSS), on a chip without FP4 tensor cores (Hopper). The runtime
 * loads that checkpoint whatever precision a benchmark table is headed with: the experts run W4A16 (MXFP4 weights read
 * from memory, dequantized to bf16 inside the MoE kernel, bf16 MMA), attention, the dense projections and the KV cache
 * stay bf16 (TensorRT-LLM examples/models/core/gpt_oss/README.md, MoE support matrix).
 */
final class ShippedCheckpoint {

    /** MXFP4 (OCP Microscaling Formats spec v1.0): a 4-bit E2M1 element plus one 8-bit E8M0 scale per block of 32. */
    static final double MXFP4_BYTES_PER_WEIGHT = 0.5 + 1.0 / 32;

    private ShippedCheckpoint() {
    }

    /** True when the runtime serves this model's MXFP4 experts as W4A16 on this chip. */
    static boolean w4a16Experts(ModelSpec model, Chip chip, InferencePlan plan) {
        return plan.runtime().mxfp4MoeW4a16() && model.isMoe() && model.detail() != null
                && model.detail().mxfp4Experts() && !chip.supports(Precision.FP4);
    }

    /** The plan the runtime actually runs: bf16 weights, activations and KV cache when it serves W4A16 experts. */
    static InferencePlan served(ModelSpec model, Chip chip, InferencePlan plan) {
        return w4a16Experts(model, chip, plan)
                ? plan.withPrecisions(Precision.BF16, Precision.BF16, Precision.BF16) : plan;
    }
}
