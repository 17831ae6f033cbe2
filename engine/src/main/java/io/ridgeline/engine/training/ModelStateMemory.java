package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Weights, gradients and optimizer state per device, in the formats the software profile keeps them (Megatron: 16-bit
 * weights, fp32 or 16-bit gradient buffer, fp32 master + Adam m, v; FSDP: fp32 flat parameters, fp32 or 16-bit
 * gradients, m and v). ZeRO-1 shards the optimizer state over the data-parallel ranks, ZeRO-2 also the gradients,
 * ZeRO-3 also the weights (Rajbhandari et al. 2020); routed-expert state shards over the expert-data-parallel ranks.
 * The legacy Megatron-LM profile gives Korthikanti et al. 2022 Fig. 1's 18 bytes per parameter.
 */
public final class ModelStateMemory {
    /** 16-bit weights: what a ZeRO-3/FSDP unit all-gathers and a pipeline stage holds for compute. */
    public static final double WEIGHT_BYTES = 2;

    private ModelStateMemory() {
    }

    /** Transformer-layer parameters on one device of the most loaded stage (excluding embeddings). */
    public static double layerParamsPerDevice(ModelSpec m, TrainingPlan plan) {
        StageParameters p = StageParameters.of(m, plan);
        return p.total() - p.embeddingUnit();
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

    /** Weight bytes of {@code params} dense parameters. */
    public static double weightBytes(double params, TrainingPlan plan) {
        return params * plan.software().weightBytes() / (plan.zero() >= 3 ? plan.dp() * plan.cp() : 1);
    }

    /** Bytes per parameter of the gradient buffer. */
    public static double gradientBytesPerParam(TrainingPlan plan) {
        return plan.software().gradientBytes();
    }

    public static double gradientBytes(double params, TrainingPlan plan) {
        return params * gradientBytesPerParam(plan) / (plan.zero() >= 2 ? plan.dp() * plan.cp() : 1);
    }

    public static double optimizerBytes(double params, TrainingPlan plan) {
        return params * plan.software().optimizerBytes() / (plan.zero() >= 1 ? plan.dp() * plan.cp() : 1);
    }

    /** Resident weight bytes: the profile's weights, sharded by ZeRO-3, plus FP8/FP4 copies of the GEMM weights. */
    static double weights(StageParameters p, TrainingPlan plan) {
        TrainingBehaviour sw = plan.software();
        boolean sharded = plan.zero() >= 3;
        double bytes = sw.weightBytes() * (p.dense() / (sharded ? p.denseShards() : 1)
                + p.expert() / (sharded ? p.expertShards() : 1));
        if (lowPrecision(plan) && !sharded) {
            // Transformer Engine keeps each GEMM weight quantized (and transposed) between steps.
            bytes += p.linear() * sw.lowPrecisionRecipe().quantizedBytesPerElement();
        }
        return bytes;
    }

    static double gradients(StageParameters p, TrainingPlan plan) {
        boolean sharded = plan.zero() >= 2;
        return plan.software().gradientBytes() * (p.dense() / (sharded ? p.denseShards() : 1)
                + p.expert() / (sharded ? p.expertShards() : 1));
    }

    static double optimizer(StageParameters p, TrainingPlan plan) {
        boolean sharded = plan.zero() >= 1;
        return plan.software().optimizerBytes() * (p.dense() / (sharded ? p.denseShards() : 1)
                + p.expert() / (sharded ? p.expertShards() : 1));
    }

    /**
     * ZeRO-3/FSDP working set: the unit computing and the units prefetched, gathered in 16 bits (with their quantized
     * copies under FP8), the unit's unsharded gradient before its reduce-scatter, and the embedding unit, which stays
     * gathered from its forward to its backward (FSDP root module). Zero below ZeRO-3.
     */
    static double gatheredUnits(StageParameters p, TrainingPlan plan) {
        if (plan.zero() < 3 || p.denseShards() * (double) p.expertShards() <= 1) {
            return 0;
        }
        TrainingBehaviour sw = plan.software();
        double perParam = WEIGHT_BYTES + (lowPrecision(plan) ? sw.lowPrecisionRecipe().quantizedBytesPerElement() : 0);
        double live = (1 + sw.prefetchUnits()) * p.layerUnit();
        double unit = p.layerUnit();
        if (sw.maxLiveParams() > 0) {
            // DeepSpeed gathers per submodule and caps what is resident (stage3_max_live_parameters).
            live = Math.min(live, sw.maxLiveParams());
            unit = Math.min(unit, sw.maxLiveParams());
        }
        return live * perParam + unit * sw.gradientBytes() + p.embeddingUnit() * WEIGHT_BYTES;
    }

    static boolean lowPrecision(TrainingPlan plan) {
        return plan.precision() == Precision.FP8 || plan.precision() == Precision.FP4;
    }
}
