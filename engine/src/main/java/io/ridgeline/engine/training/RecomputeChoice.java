package io.ridgeline.engine.training;

import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * What a step recomputes: a share of each stage's layers recomputed fully, and selective recomputation (of the s x s
 * part) for the rest. {@link Recompute#AUTO} resolves to the least recomputation that fits: nothing; else selective
 * where it saves memory (unfused attention) and the stack has it; else full recomputation of as few layers per stage
 * as needed (Megatron
 * recompute_method=block, recompute_num_layers); else full recomputation everywhere, which then does not fit.
 *
 * @param fullFraction recomputed layers over layers per stage, 0..1
 * @param selective    the layers not recomputed fully recompute the s x s part
 */
record RecomputeChoice(double fullFraction, boolean selective) {
    private static final RecomputeChoice NONE = new RecomputeChoice(0, false);
    private static final RecomputeChoice SELECTIVE = new RecomputeChoice(0, true);
    private static final RecomputeChoice FULL = new RecomputeChoice(1, false);

    /** The plan's own choice; AUTO is resolved against {@code budgetBytes} for activations. */
    static RecomputeChoice of(ModelSpec m, int seqLen, TrainingPlan plan, double budgetBytes) {
        return switch (plan.recompute()) {
            case NONE -> NONE;
            case SELECTIVE -> SELECTIVE;
            case FULL -> FULL;
            case AUTO -> auto(m, seqLen, plan, budgetBytes);
        };
    }

    private static RecomputeChoice auto(ModelSpec m, int seqLen, TrainingPlan plan, double budget) {
        if (StepMemory.activationBytes(m, seqLen, plan, 0, false) <= budget) {
            return NONE;
        }
        boolean selective = !plan.flashAttention() && plan.software().selectiveRecompute();
        if (selective && StepMemory.activationBytes(m, seqLen, plan, 0, true) <= budget) {
            return SELECTIVE;
        }
        // Memory falls as more layers recompute: binary search the fewest that fit.
        int layers = (int) Math.ceil((double) m.layers() / plan.pp());
        if (StepMemory.activationBytes(m, seqLen, plan, 1, false) > budget) {
            return FULL;
        }
        int lo = 1;
        int hi = layers;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (StepMemory.activationBytes(m, seqLen, plan, (double) mid / layers, selective) <= budget) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo == layers ? FULL : new RecomputeChoice((double) lo / layers, selective);
    }

    /** Hardware FLOPs over model FLOPs: one extra forward (a third of a step) for each fully recomputed layer. */
    double hardwareOverModel() {
        return 1 + fullFraction / 3;
    }
}
