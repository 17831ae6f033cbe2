package io.ridgeline.engine.training;

import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Weights, gradients and optimizer state per device for mixed-precision Adam as Megatron-LM keeps them: 16-bit
 * weights (2 B), gradient buffers, fp32 master weights, Adam m and v (12 B). The legacy DDP (2021-22) accumulates
 * gradients in fp32 "main_grad" buffers (4 B): the 18 bytes per parameter of Korthikanti et al. 2022 Fig. 1. The
 * Megatron-core DDP that overlaps gradient reduction (2023+, {@link TrainingPlan#overlapGrad()}) keeps and reduces them
 * in the parameter dtype by default (grad_reduce_in_fp32 = false): 2 B. ZeRO-1 shards the 12 optimizer bytes over DP,
 * ZeRO-2 also the gradients, ZeRO-3 also the weights (Rajbhandari et al. 2020).
 */
public final class ModelStateMemory {
    public static final double WEIGHT_BYTES = 2;
    public static final double OPTIMIZER_BYTES = 12;
    static final double LEGACY_GRADIENT_BYTES = 4;
    static final double MODERN_GRADIENT_BYTES = 2;

    private ModelStateMemory() {
    }

    /** Transformer-layer parameters on one device of the most loaded stage (excluding embeddings). */
    public static double layerParamsPerDevice(ModelSpec m, TrainingPlan plan) {
        double layersPerStage = Math.ceil((double) m.layers() / plan.pp());
        double attention = m.attentionParamsPerLayer() / plan.tp();
        double mlp;
        if (m.moe() == null) {
            mlp = m.mlpParamsPerLayer() / plan.tp();
        } else {
            // Experts are split over EP ranks, each expert over TP ranks; the router is replicated.
            double experts = m.mlp().matrices() * (double) m.hidden() * m.moe().expertFfn();
            mlp = experts * ((double) m.moe().experts() / plan.ep() + m.moe().sharedExperts()) / plan.tp()
                    + (double) m.hidden() * m.moe().experts();
        }
        double norms = m.normParamsPerLayer();
        return layersPerStage * (attention + mlp + norms);
    }

    /** Embedding (or LM head) parameters on the first (last) stage's device. */
    public static double embeddingParamsPerDevice(ModelSpec m, TrainingPlan plan) {
        double one = (double) m.vocab() * m.hidden() / plan.tp();
        // With one stage, input embedding and untied LM head both live there; tied ones are a single matrix.
        if (plan.pp() == 1) {
            return m.tiedEmbeddings() ? one : 2 * one;
        }
        return one;
    }

    public static double weightBytes(double params, TrainingPlan plan) {
        return params * WEIGHT_BYTES / (plan.zero() >= 3 ? plan.dp() : 1);
    }

    /** Bytes per parameter of the gradient buffer (and of the DP reduction). */
    public static double gradientBytesPerParam(TrainingPlan plan) {
        return plan.overlapGrad() ? MODERN_GRADIENT_BYTES : LEGACY_GRADIENT_BYTES;
    }

    public static double gradientBytes(double params, TrainingPlan plan) {
        return params * gradientBytesPerParam(plan) / (plan.zero() >= 2 ? plan.dp() : 1);
    }

    public static double optimizerBytes(double params, TrainingPlan plan) {
        return params * OPTIMIZER_BYTES / (plan.zero() >= 1 ? plan.dp() : 1);
    }
}
