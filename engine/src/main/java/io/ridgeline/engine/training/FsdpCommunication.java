package io.ridgeline.engine.training;

import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.BackwardPrefetch;

/**
 * ZeRO-3 / FSDP communication of one micro-batch (Rajbhandari et al. SC'20 sec. 5; Zhao et al., PyTorch FSDP, VLDB'23
 * sec. 3): every layer's parameters are all-gathered before its forward and again before its backward, and its
 * gradients reduce-scattered after its backward, each micro-batch. With prefetch, the next layer's gather runs while
 * this layer computes, so per layer only what outlasts the compute shows. In backward, prefetching before the
 * gradient computation (BACKWARD_PRE) hides the gather and the previous layer's reduce-scatter (sharing the links)
 * behind the compute; prefetching after it (BACKWARD_POST) leaves every gather exposed and hides only the
 * reduce-scatter behind the next layer's compute. The first gather of each pass and the last reduce-scatter are never hidden;
 * neither is the embedding's gather (it opens the forward) or its reduce-scatter (it closes the backward). Small
 * per-layer messages at large data-parallel sizes pay the collective's latency term (CollectiveModel).
 */
record FsdpCommunication(CollectiveModel collectives) {
    /**
     * Exposed seconds per micro-batch.
     *
     * @param layers          layers on the stage
     * @param forwardSeconds  GPU seconds of one layer's forward
     * @param backwardSeconds GPU seconds of one layer's backward (with any recomputation)
     * @param recomputed      share of the layers recomputed fully (some stacks gather their parameters again for it)
     */
    double exposedPerMicroBatch(StageParameters p, TrainingPlan plan, Group dp, double layers, double forwardSeconds,
                                double backwardSeconds, double recomputed) {
        if (plan.zero() < 3 || dp.size() == 1) {
            return 0;
        }
        double unit = p.layerUnit();
        // Each runs once per layer (gathers twice); repeat() meters the wire bytes of the runs after the first.
        double gather = collectives.allGather(unit * ModelStateMemory.WEIGHT_BYTES, dp);
        double regather = plan.software().regatherOnRecompute() ? recomputed : 0;
        collectives.repeat((2 + regather) * layers, gather);
        double reduce = collectives.reduceScatter(unit * plan.software().reduceBytes(), dp);
        collectives.repeat(layers, reduce);
        double embedding = collectives.allGather(p.embeddingUnit() * ModelStateMemory.WEIGHT_BYTES, dp)
                + collectives.reduceScatter(p.embeddingUnit() * plan.software().reduceBytes(), dp);
        // A recomputed layer's forward re-gathers before its backward gathers: the backward's gather time grows.
        double backwardGather = (1 + regather) * gather;
        if (plan.software().prefetchUnits() == 0) {
            return layers * (gather + backwardGather + reduce) + embedding;
        }
        double forward = gather + (layers - 1) * Math.max(0, gather - forwardSeconds);
        double backward = plan.software().backwardPrefetch() == BackwardPrefetch.PRE
                ? backwardGather + (layers - 1) * Math.max(0, backwardGather + reduce - backwardSeconds) + reduce
                : layers * backwardGather + (layers - 1) * Math.max(0, reduce - backwardSeconds) + reduce;
        return forward + backward + embedding;
    }
}
