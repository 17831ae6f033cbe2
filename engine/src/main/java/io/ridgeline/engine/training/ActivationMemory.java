package io.ridgeline.engine.training;

import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Activation bytes kept for backward, 16-bit activations (Korthikanti et al. 2022, sec. 4, eqs. 1-6). The coefficient
 * 34 = 10 (attention block + MLP inputs, norms, dropout masks) + 24 (the MLP's 4h-wide tensors); 5·a·s/h is the
 * attention s x s scores, softmax output and dropout mask. Generalised to GQA (K/V width) and SwiGLU (gate) by the
 * same counting; equals Korthikanti's formulas exactly for GPT shapes.
 */
public final class ActivationMemory {
    private ActivationMemory() {
    }

    /** Bytes per layer per micro-batch on one device. */
    public static double perLayerBytes(ModelSpec m, int seqLen, TrainingPlan plan) {
        double s = (double) seqLen / plan.cp();
        double b = plan.microBatch();
        double h = m.hidden();
        double t = plan.tp();
        double sbh = s * b * h;
        if (plan.recompute() == Recompute.FULL) {
            // Only the layer input is kept (sharded across TP ranks under SP).
            return 2 * sbh / (plan.sp() ? t : 1);
        }
        // Replicated across TP ranks without SP (10 sbh): two layernorm inputs (2x2), QKV and MLP inputs (2x2),
        // two dropout masks (2x1). Split by TP: Q (2), K and V (2x2·kv/h), projection input (2), MLP up output and
        // activation output (2x2·ffn/h), plus the gate output (2·ffn/h) for SwiGLU. GPT (kv = h, ffn = 4h) gives
        // 2 + 4 + 2 + 16 = 24: Korthikanti's 24/t.
        double kvRatio = (double) m.kvWidth() / h;
        double ffnRatio = activeFfn(m) / h;
        double gate = m.mlp().matrices() == 3 ? 1 : 0;
        double split = 2 + 4 * kvRatio + 2 + (4 + 2 * gate) * ffnRatio;
        // Llama-style architectures (gated MLP) train without dropout: no 1-byte masks.
        double replicated = gate > 0 ? 8 : 10;
        double attention = 0;
        boolean keepsScores = plan.recompute() == Recompute.NONE && !plan.flashAttention();
        if (keepsScores) {
            // softmax output (2 B), dropout mask (1 B), dropout output (2 B) per score: 5·a·s² per sequence.
            attention = 5.0 * m.heads() * s / h;
        }
        if (plan.sp()) {
            return sbh / t * (replicated + split + attention);
        }
        return sbh * (replicated + split / t + attention / t);
    }

    /**
     * Bytes on the first pipeline stage, which holds the most micro-batches in flight: under 1F1B, p micro-batches of
     * ceil(L/p) layers each (never more than the micro-batches of a step); interleaving adds (1 + (p-1)/(p·v))
     * (Korthikanti et al. 2022 sec. 4.2.3). Full recompute also holds one layer's full activations during its
     * backward.
     */
    public static double firstStageBytes(ModelSpec m, int seqLen, TrainingPlan plan) {
        int p = plan.pp();
        int microBatches = plan.microBatchesPerStep();
        double layersPerStage = Math.ceil((double) m.layers() / p);
        double inFlight = Math.min(p, microBatches);
        double factor = plan.vpp() > 1 ? 1 + (p - 1.0) / (p * (double) plan.vpp()) : 1;
        double bytes = perLayerBytes(m, seqLen, plan) * layersPerStage * inFlight * factor;
        if (plan.recompute() == Recompute.FULL) {
            bytes += perLayerBytes(m, seqLen, plan.withRecompute(Recompute.NONE));
        }
        return bytes;
    }

    private static double activeFfn(ModelSpec m) {
        if (m.moe() == null) {
            return m.ffn();
        }
        return (double) m.moe().expertFfn() * m.moe().activeExpertsPerToken() * m.moe().capacityFactor();
    }
}
