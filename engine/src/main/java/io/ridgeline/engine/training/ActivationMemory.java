package io.ridgeline.engine.training;

import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.MlpType;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Activation bytes kept for backward (Korthikanti et al. 2022, sec. 4, eqs. 1-6). The coefficient 34 = 10 (attention
 * block and MLP inputs, norms, dropout masks) + 24 (the MLP's 4h-wide tensors); 5·a·s/h is the attention s x s scores,
 * softmax output and dropout mask, which fused attention never stores. Generalised by the same counting to GQA (K/V
 * width), SwiGLU (gate), stacks without dropout, FP8 (Transformer Engine saves the quantized copy of each GEMM input
 * instead of the 16-bit one) and MoE (each routed copy of a token keeps its expert input and intermediate); equals
 * Korthikanti's formulas exactly for GPT shapes in 16 bits with dropout.
 */
public final class ActivationMemory {
    private ActivationMemory() {
    }

    /** Bytes per layer per micro-batch on one device, for the plan's own recomputation (not AUTO). */
    public static double perLayerBytes(ModelSpec m, int seqLen, TrainingPlan plan) {
        return perLayerBytes(m, seqLen, plan, plan.recompute());
    }

    /** Bytes per layer per micro-batch on one device under recomputation {@code r} (NONE, SELECTIVE or FULL). */
    public static double perLayerBytes(ModelSpec m, int seqLen, TrainingPlan plan, Recompute r) {
        double s = (double) seqLen / plan.cp();
        double b = plan.microBatch();
        double h = m.hidden();
        double t = plan.tp();
        double sbh = s * b * h;
        if (r == Recompute.FULL) {
            // Only the layer input is kept (sharded across TP ranks under SP).
            return 2 * sbh / (plan.sp() ? t : 1);
        }
        boolean gated = m.mlp() == MlpType.SWIGLU;
        boolean dropout = m.trainsWithDropout(plan.software().dropout());
        // A GEMM input saved for the weight gradient: 2 B in 16 bits, or its quantized copy under FP8/FP4.
        double in = ModelStateMemory.lowPrecision(plan)
                ? plan.software().lowPrecisionRecipe().quantizedBytesPerElement() / 2 : 2;
        double kvRatio = (double) m.kvWidth() / h;
        double qRatio = (double) m.heads() * m.headDim() / h;
        double gate = gated ? 1 : 0;
        // Replicated across TP ranks without SP: two norm inputs (2 x 2), QKV and MLP-up inputs, dropout masks (2 x 1).
        double replicated = 4 + 2 * in + (dropout ? 2 : 0);
        // Split by TP: Q (2·q/h), K and V (2 x 2·kv/h), attention output (2: the projection's input, which fused
        // attention's backward also reads in 16 bits; FP8 adds its quantized copy), MLP up output (2·ffn/h, 4·ffn/h
        // with the gate) and the activation output (the MLP-down input).
        double attentionOut = 2 + (in < 2 ? in : 0);
        double split = 2 * qRatio + 4 * kvRatio + attentionOut * qRatio;
        double mlp;
        if (m.moe() == null) {
            mlp = ((2 + 2 * gate) + in) * m.ffn() / h;
        } else {
            // Each routed copy keeps its expert input, up output and activation output; shared experts read the
            // norm output already counted.
            double copies = m.moe().topK() * m.moe().capacityFactor();
            double ffn = (double) m.moe().expertFfn();
            mlp = copies * (in + ((2 + 2 * gate) + in) * ffn / h)
                    + m.moe().sharedExperts() * ((2 + 2 * gate) + in) * ffn / h;
        }
        split += mlp;
        double attention = 0;
        if (r == Recompute.NONE && !plan.flashAttention()) {
            // softmax output (2 B), dropout mask (1 B), dropout output (2 B) per score: 5·a·s² per sequence.
            attention = (dropout ? 5.0 : 2.0) * m.heads() * s / h;
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
        Recompute r = plan.recompute();
        return firstStageBytes(m, seqLen, plan, r == Recompute.FULL ? 1 : 0,
                r == Recompute.SELECTIVE ? Recompute.SELECTIVE : Recompute.NONE);
    }

    /**
     * First-stage bytes when a fraction {@code fullFraction} of each stage's layers recomputes fully (Megatron block
     * recomputation) and the others keep what {@code rest} keeps (NONE or SELECTIVE).
     */
    public static double firstStageBytes(ModelSpec m, int seqLen, TrainingPlan plan, double fullFraction,
                                         Recompute rest) {
        double layersPerStage = Math.ceil((double) m.layers() / plan.pp());
        double kept = perLayerBytes(m, seqLen, plan, rest);
        double perLayer = fullFraction * perLayerBytes(m, seqLen, plan, Recompute.FULL) + (1 - fullFraction) * kept;
        double bytes = perLayer * layersPerStage * inFlight(plan);
        if (fullFraction > 0) {
            bytes += perLayerBytes(m, seqLen, plan, Recompute.NONE);
        }
        return bytes;
    }

    /** Micro-batches whose activations the first stage holds at once, with the interleaving factor. */
    static double inFlight(TrainingPlan plan) {
        int p = plan.pp();
        double microBatches = Math.min(p, plan.microBatchesPerStep());
        double factor = plan.vpp() > 1 ? 1 + (p - 1.0) / (p * (double) plan.vpp()) : 1;
        return microBatches * factor;
    }
}
