package io.ridgeline.engine.training;

import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * The per-device tensor shapes of one transformer layer for one micro-batch, and where its communicators sit: computed
 * once per evaluation so the timing classes read plain doubles.
 *
 * @param tokens       tokens a device processes per micro-batch (b·s/cp)
 * @param normTokens   tokens of replicated ops (norms, residuals): tokens/tp under sequence parallelism
 * @param qWidth       query (and attention output) width per TP rank: local heads x head dim
 * @param qkvWidth     QKV projection output width per TP rank
 * @param localHeads   query heads per TP rank
 * @param querySeq     query positions per device (s/cp)
 * @param keySeq       key positions each query attends to (s; ring attention walks all of them)
 * @param causalKeys   keys an average query of a fused causal kernel computes against: s/2, or the window on
 *                     sliding-window layers (averaged over the layers)
 * @param valueDim     per-head value width
 * @param dropout      hidden and attention dropout run (the stack trains GPT-style models with dropout; gated-MLP
 *                     models never use it)
 * @param expertTokens tokens a device routes into its MoE layer: all of them when experts are split over TP, its
 *                     sequence-parallel share when each expert is whole on a rank (expert TP = 1)
 * @param expertFfn    per-device width of one routed expert (ffn / expert TP)
 * @param ep           the expert-parallel group (placed with stride expert TP)
 * @param moeFastPath  the stack's fused FP8 MoE path applies (MoE model, FP8/FP4 plan, block-scaled tensor cores:
 *                     TrainingBehaviour.moeFp8FastPath)
 */
record LayerShape(ModelSpec model, TrainingPlan plan, double tokens, double normTokens, double hidden,
                  double qWidth, double qkvWidth, double localHeads, double headDim, double querySeq, double keySeq,
                  double causalKeys, double valueDim, double microBatch,
                  boolean dropout, double expertTokens, double expertFfn, Group tp, Group cp, Group ep,
                  boolean moeFastPath) {

    /**
     * @param blockScaled the chip has block-scaled (MX/NV) tensor cores, which the fused FP8 MoE kernels need; the
     *                    catalogue marks them by an FP4 peak (Blackwell)
     */
    static LayerShape of(ModelSpec m, int seqLen, TrainingPlan plan, Group tp, Group cp, Group ep,
                         boolean blockScaled) {
        double tokens = (double) plan.microBatch() * seqLen / plan.cp();
        double normTokens = plan.sp() ? tokens / plan.tp() : tokens;
        double q = (double) m.heads() * m.headDim() / plan.tp();
        double qkv = q + 2.0 * m.kvWidth() / plan.tp();
        boolean dropout = m.trainsWithDropout(plan.software().dropout());
        int etp = StageParameters.expertTensorParallel(plan);
        double expertTokens = etp == plan.tp() ? tokens : tokens / plan.tp();
        double expertFfn = m.moe() == null ? 0 : (double) m.moe().expertFfn() / etp;
        double causal = m.causalKeys(seqLen);
        return new LayerShape(m, plan, tokens, normTokens, m.hidden(), q, qkv, (double) m.heads() / plan.tp(),
                m.headDim(), (double) seqLen / plan.cp(), seqLen, causal, m.valueHeadDim(),
                plan.microBatch(), dropout, expertTokens, expertFfn, tp, cp, ep, m.moe() != null && blockScaled
                && plan.software().moeFp8FastPath() && ModelStateMemory.lowPrecision(plan));
    }

    /** Bytes of one activation tensor [tokens, hidden] in 16 bits: the TP all-reduce / all-gather payload. */
    double activationBytes() {
        return tokens * hidden * 2;
    }

    /** Keys a query of a sliding-window layer attends to (min(window, s)); 0 without a window. */
    double windowKeys() {
        return model.detail() == null ? 0 : Math.min(keySeq, model.detail().slidingWindow());
    }

    /** Share of the layers that attend within the window. */
    double windowShare() {
        return windowKeys() > 0 ? model.detail().slidingLayerShare() : 0;
    }

    /** True when the MoE layer's experts stay whole on each rank (no TP collectives around them). */
    boolean expertsOutsideTp() {
        return model.moe() != null && plan.tp() > 1 && !plan.software().expertTensorParallel();
    }
}
