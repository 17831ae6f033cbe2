package io.ridgeline.engine.training;

import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.MlpType;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * The per-device tensor shapes of one transformer layer for one micro-batch, and where its communicators sit: computed
 * once per evaluation so the timing classes read plain doubles.
 *
 * @param tokens       tokens a device processes per micro-batch (b·s/cp)
 * @param normTokens   tokens of replicated ops (norms, residuals): tokens/tp under sequence parallelism
 * @param localHeads   query heads per TP rank
 * @param querySeq     query positions per device (s/cp)
 * @param keySeq       key positions each query attends to (s; ring attention walks all of them)
 * @param dropout      GPT-style dropout after attention and MLP and on attention probabilities (Llama-style
 *                     architectures, identified by a gated MLP, train without dropout)
 */
record LayerShape(ModelSpec model, TrainingPlan plan, double tokens, double normTokens, double hidden,
                  double qkvWidth, double localHeads, double headDim, double querySeq, double keySeq,
                  double microBatch, boolean dropout, Group tp, Group cp, Group ep) {

    static LayerShape of(ModelSpec m, int seqLen, TrainingPlan plan, Group tp, Group cp, Group ep) {
        double tokens = (double) plan.microBatch() * seqLen / plan.cp();
        double normTokens = plan.sp() ? tokens / plan.tp() : tokens;
        double qkv = (m.hidden() + 2.0 * m.kvWidth()) / plan.tp();
        return new LayerShape(m, plan, tokens, normTokens, m.hidden(), qkv, (double) m.heads() / plan.tp(),
                m.headDim(), (double) seqLen / plan.cp(), seqLen, plan.microBatch(), m.mlp() == MlpType.GELU, tp, cp,
                ep);
    }

    /** Bytes of one activation tensor [tokens, hidden] in 16 bits: the TP all-reduce / all-gather payload. */
    double activationBytes() {
        return tokens * hidden * 2;
    }
}
