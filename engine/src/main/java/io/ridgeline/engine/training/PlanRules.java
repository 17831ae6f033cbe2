package io.ridgeline.engine.training;

import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelSpec;

/** Divisibility rules a Megatron-style plan must satisfy for a model and batch. */
public final class PlanRules {
    private PlanRules() {
    }

    /** The first rule the plan breaks, as "field: expected …, found …" text, or null when the plan is well-shaped. */
    public static String shapeProblem(ModelSpec m, int seqLen, TrainingPlan plan) {
        int tp = plan.tp();
        if (m.heads() % tp != 0) {
            return "tp: expected a divisor of heads " + m.heads() + ", found " + tp;
        }
        if (m.kvHeads() % tp != 0 && tp % m.kvHeads() != 0) {
            return "tp: expected a divisor or multiple of kv_heads " + m.kvHeads() + ", found " + tp;
        }
        if (m.ffn() % tp != 0 || (m.moe() != null && m.moe().expertFfn() % tp != 0)) {
            return "tp: expected a divisor of ffn " + m.ffn() + ", found " + tp;
        }
        String chunks = PipelineLayout.chunkProblem(m, plan);
        if (chunks != null) {
            // Uneven stages are allowed (Megatron's first/last-stage layer counts); every chunk needs a layer.
            return chunks;
        }
        if (plan.vpp() > 1 && plan.pp() == 1) {
            return "vpp: expected 1 without pipeline parallelism, found " + plan.vpp();
        }
        if (plan.globalBatch() % ((long) plan.dp() * plan.microBatch()) != 0) {
            return "global_batch: expected a multiple of dp x micro_batch = " + plan.dp() * plan.microBatch()
                    + ", found " + plan.globalBatch();
        }
        if (plan.vpp() > 1 && plan.microBatchesPerStep() % plan.pp() != 0) {
            return "global_batch: interleaving needs micro-batches per step (" + plan.microBatchesPerStep()
                    + ") to be a multiple of pp " + plan.pp();
        }
        if (seqLen % plan.cp() != 0) {
            return "cp: expected a divisor of seq_len " + seqLen + ", found " + plan.cp();
        }
        if (plan.sp() && tp == 1) {
            return "sp: sequence parallelism needs tp > 1";
        }
        if (m.moe() == null && plan.ep() > 1) {
            return "ep: expected 1 for a dense model, found " + plan.ep();
        }
        if (m.moe() != null) {
            if (m.moe().experts() % plan.ep() != 0) {
                return "ep: expected a divisor of experts " + m.moe().experts() + ", found " + plan.ep();
            }
            // Experts split over TP take EP ranks from dp x cp; experts whole on a rank (expert TP 1, MoE parallel
            // folding) may take them from tp x cp x dp (Megatron-core: tp x cp x dp = etp x ep x edp).
            int pool = plan.software().expertTensorParallel() ? plan.dp() * plan.cp()
                    : plan.tp() * plan.dp() * plan.cp();
            if (pool % plan.ep() != 0) {
                return "ep: expected a divisor of " + (plan.software().expertTensorParallel() ? "dp x cp = "
                        : "tp x dp x cp = ") + pool + ", found " + plan.ep();
            }
        }
        return null;
    }
}
