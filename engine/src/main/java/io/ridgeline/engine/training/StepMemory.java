package io.ridgeline.engine.training;

import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Activation-side memory of the most loaded device for one recomputation choice: the first stage holds the most
 * micro-batches in flight; the last materialises the logits (16-bit, plus an fp32 copy for an unfused loss) with one
 * micro-batch in flight; an MoE layer also holds its dispatch and combine buffers while it runs. The profile's
 * fragmentation share of activation memory is added on top (the caching allocator cannot reuse it).
 */
final class StepMemory {
    private StepMemory() {
    }

    /**
     * Peak activation bytes on the most loaded stage.
     *
     * @param fullFraction share of each stage's layers that recompute fully (Megatron block recomputation)
     * @param selective    the other layers recompute the s x s part (unfused attention)
     */
    static double activationBytes(ModelSpec m, int seqLen, TrainingPlan plan, double fullFraction, boolean selective) {
        Recompute rest = selective ? Recompute.SELECTIVE : Recompute.NONE;
        double first = ActivationMemory.firstStageBytes(m, seqLen, plan, fullFraction, rest);
        double logits = logitsBytes(m, seqLen, plan);
        double last;
        if (plan.pp() == 1) {
            last = first + logits;
        } else {
            double layers = Math.ceil((double) m.layers() / plan.pp());
            double perLayer = fullFraction * ActivationMemory.perLayerBytes(m, seqLen, plan, Recompute.FULL)
                    + (1 - fullFraction) * ActivationMemory.perLayerBytes(m, seqLen, plan, rest);
            last = perLayer * layers + logits
                    + (fullFraction > 0 ? ActivationMemory.perLayerBytes(m, seqLen, plan, Recompute.NONE) : 0);
        }
        double peak = Math.max(first, last) + dispatchBuffers(m, seqLen, plan);
        return peak * (1 + plan.software().fragmentationFraction());
    }

    /** Logits of one micro-batch on the last stage: 16-bit, plus fp32 for the loss unless a fused kernel computes it. */
    static double logitsBytes(ModelSpec m, int seqLen, TrainingPlan plan) {
        double tokens = (double) plan.microBatch() * seqLen / plan.cp();
        return tokens * m.vocab() / plan.tp() * (plan.software().fusedCrossEntropy() ? 2 : 2 + 4);
    }

    /** MoE all-to-all send and receive buffers of one layer: every routed copy of the device's tokens, twice. */
    static double dispatchBuffers(ModelSpec m, int seqLen, TrainingPlan plan) {
        if (m.moe() == null || plan.ep() == 1) {
            return 0;
        }
        double tokens = (double) plan.microBatch() * seqLen / plan.cp();
        if (!plan.software().expertTensorParallel()) {
            tokens /= plan.tp();
        }
        return 2 * tokens * m.moe().topK() * m.moe().capacityFactor() * m.hidden() * 2;
    }
}
