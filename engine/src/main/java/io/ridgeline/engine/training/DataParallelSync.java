package io.ridgeline.engine.training;

import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.parallelism.TrainingPlan;

/**
 * Once-per-step data-parallel synchronisation below ZeRO-3: gradients all-reduced (ZeRO-0) or reduce-scattered with
 * a 16-bit parameter all-gather after the sharded optimizer step (ZeRO-1/2, Megatron's distributed optimizer), in
 * the profile's reduce dtype. Without overlap it follows the last backward. With bucketed overlap
 * (overlap_grad_reduce), only what outlasts the last micro-batch's backward is exposed (at least one bucket); with
 * overlap_param_gather, the all-gather hides behind the next step's first forward the same way.
 */
record DataParallelSync(CollectiveModel collectives) {
    /**
     * Exposed seconds per step: dense parameters synchronise over the data-parallel group, routed-expert parameters
     * over the expert-data-parallel group (fewer ranks, often one per node: each rank's whole share then crosses its
     * own NIC).
     *
     * @param layers          layers on the stage (gradient buckets follow them)
     * @param forwardSeconds  GPU seconds of one micro-batch's forward on the stage
     * @param backwardSeconds GPU seconds of one micro-batch's backward on the stage
     */
    double exposedPerStep(StageParameters p, TrainingPlan plan, Group dp, Group edp, double layers,
                          double forwardSeconds, double backwardSeconds) {
        if (plan.zero() >= 3) {
            return 0;
        }
        return exposed(p.dense(), plan, dp, layers, forwardSeconds, backwardSeconds)
                + exposed(p.expert(), plan, edp, layers, forwardSeconds, backwardSeconds);
    }

    private double exposed(double params, TrainingPlan plan, Group dp, double layers, double forwardSeconds,
                           double backwardSeconds) {
        if (dp.size() == 1 || params <= 0) {
            return 0;
        }
        double gradBytes = params * plan.software().reduceBytes();
        double reduce;
        double gather = 0;
        if (plan.zero() == 0) {
            reduce = collectives.allReduce(gradBytes, dp);
        } else {
            reduce = collectives.reduceScatter(gradBytes, dp);
            gather = collectives.allGather(params * ModelStateMemory.WEIGHT_BYTES, dp);
        }
        double buckets = Math.max(1, layers);
        if (plan.software().gradReduceOverlap()) {
            reduce = Math.max(reduce / buckets, reduce - backwardSeconds);
        }
        if (gather > 0 && plan.software().paramGatherOverlap()) {
            gather = Math.max(gather / buckets, gather - forwardSeconds);
        }
        return reduce + gather;
    }
}
