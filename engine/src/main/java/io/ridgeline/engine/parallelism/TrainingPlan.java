package io.ridgeline.engine.parallelism;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.software.LegacySwitches;
import io.ridgeline.engine.software.TrainingBehaviour;

/**
 * How a training step is mapped onto the cluster (Megatron-LM conventions).
 *
 * @param tp          tensor-parallel size (Megatron column/row split)
 * @param pp          pipeline stages
 * @param dp          data-parallel replicas
 * @param cp          context-parallel size (sequence sharded across ranks, ring attention)
 * @param ep          expert-parallel size (MoE; carved out of dp x cp ranks)
 * @param sp          sequence parallelism (TP all-reduces become reduce-scatter + all-gather; norms sharded)
 * @param vpp         virtual pipeline stages per rank (1 = plain 1F1B)
 * @param zero        ZeRO stage 0-3 over the data-parallel group
 * @param microBatch  sequences per micro-batch
 * @param globalBatch sequences per optimizer step
 * @param recompute   activation recomputation ({@link Recompute#AUTO}: the least that fits, resolved per evaluation)
 * @param software    what the training framework does (kernels, overlap, formats, launch, reserve): the stack
 *                    profile of {@code catalog/stacks.yaml}
 */
public record TrainingPlan(int tp, int pp, int dp, int cp, int ep, boolean sp, int vpp, int zero, int microBatch,
                           int globalBatch, Recompute recompute, Precision precision, TrainingBehaviour software) {

    /**
     * A plan from the sweep layer's two switches: overlapped DP reduction and fused attention pick the behaviour
     * {@link LegacySwitches} documents (until sweeps name a software profile).
     */
    public TrainingPlan(int tp, int pp, int dp, int cp, int ep, boolean sp, int vpp, int zero, int microBatch,
                        int globalBatch, Recompute recompute, Precision precision, boolean overlapGrad,
                        boolean flashAttention) {
        this(tp, pp, dp, cp, ep, sp, vpp, zero, microBatch, globalBatch, recompute, precision,
                LegacySwitches.behaviour(overlapGrad, flashAttention));
    }

    public TrainingPlan {
        if (tp < 1 || pp < 1 || dp < 1 || cp < 1 || ep < 1 || vpp < 1 || microBatch < 1 || globalBatch < 1) {
            throw new IllegalArgumentException("parallel sizes and batches must be >= 1");
        }
        if (zero < 0 || zero > 3) {
            throw new IllegalArgumentException("zero must be 0..3, found " + zero);
        }
        if (software == null) {
            throw new IllegalArgumentException("a plan needs its software behaviour");
        }
    }

    /** Data-parallel gradient reduction overlapped with backward (the profile's grad_reduce_overlap). */
    public boolean overlapGrad() {
        return software.gradReduceOverlap();
    }

    /** Fused attention: no s x s tensor in memory (the profile's attention kernel). */
    public boolean flashAttention() {
        return software.fusedAttention();
    }

    /** GPUs the plan occupies. */
    public int gpus() {
        return tp * pp * dp * cp;
    }

    /** Micro-batches per pipeline per step. */
    public int microBatchesPerStep() {
        return globalBatch / (dp * microBatch);
    }

    public TrainingPlan withMicroBatch(int mb) {
        return new TrainingPlan(tp, pp, dp, cp, ep, sp, vpp, zero, mb, globalBatch, recompute, precision, software);
    }

    public TrainingPlan withExpertParallel(int expertParallel) {
        return new TrainingPlan(tp, pp, dp, cp, expertParallel, sp, vpp, zero, microBatch, globalBatch, recompute,
                precision, software);
    }

    public TrainingPlan withRecompute(Recompute r) {
        return new TrainingPlan(tp, pp, dp, cp, ep, sp, vpp, zero, microBatch, globalBatch, r, precision, software);
    }

    @Override
    public String toString() {
        return "tp" + tp + "-pp" + pp + "-dp" + dp + (cp > 1 ? "-cp" + cp : "") + (ep > 1 ? "-ep" + ep : "")
                + (sp ? "-sp" : "") + (vpp > 1 ? "-v" + vpp : "") + (zero > 0 ? "-z" + zero : "") + "-mb" + microBatch
                + "-gb" + globalBatch + "-" + recompute.id() + "-" + precision.id();
    }
}
