package io.ridgeline.engine.training;

import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Parameters one device of the most loaded pipeline stage holds, split by how they are sharded: dense parameters
 * (attention, norms, router, shared experts, embeddings) are replicated over the dp x cp ranks, routed-expert
 * parameters over the expert-data-parallel ranks (Megatron-core: tp x cp x dp = etp x ep x edp).
 *
 * @param dense          dense parameters on the device: the stage's layers plus the embedding (or LM head)
 * @param expert         routed-expert parameters on the device
 * @param linear         parameters of GEMM weights (what FP8 keeps quantized copies of): all but norms, router and
 *                       embeddings
 * @param layerUnit      parameters of one layer on the device (the ZeRO-3/FSDP gather unit)
 * @param embeddingUnit  embedding (or LM head) parameters on the device
 * @param denseShards    ranks a dense parameter's sharded state is split over (dp x cp)
 * @param expertShards   ranks a routed-expert parameter's sharded state is split over (expert data parallel)
 */
public record StageParameters(double dense, double expert, double linear, double layerUnit, double embeddingUnit,
                              int denseShards, int expertShards) {

    /** Parameters of the most loaded stage's device for a plan. */
    public static StageParameters of(ModelSpec m, TrainingPlan plan) {
        double layers = Math.ceil((double) m.layers() / plan.pp());
        int t = plan.tp();
        double attention = m.attentionParamsPerLayer() / t;
        double norms = m.normParamsPerLayer();
        double denseMlp;
        double expertMlp = 0;
        double router = 0;
        if (m.moe() == null) {
            denseMlp = m.mlpParamsPerLayer() / t;
        } else {
            double perExpert = m.mlp().matrices() * (double) m.hidden() * m.moe().expertFfn();
            // Routed experts: E/ep per rank, each split over the expert-TP ranks (tp, or 1 when experts stay whole).
            expertMlp = perExpert * m.moe().experts() / plan.ep() / expertTensorParallel(plan);
            denseMlp = perExpert * m.moe().sharedExperts() / t;
            router = (double) m.hidden() * m.moe().experts();
        }
        double embedding = ModelStateMemory.embeddingParamsPerDevice(m, plan);
        double layerDense = attention + norms + denseMlp + router;
        // Leading dense layers of an MoE model sit on the first stage; with one stage they replace MoE layers on the
        // device, with more the most loaded stage is one whose layers are all MoE.
        double denseLayers = plan.pp() == 1 ? m.denseLayers() : 0;
        double moeLayers = layers - denseLayers;
        double denseMlpLayer = m.moe() == null ? 0 : m.denseMlpParamsPerLayer() / t;
        double dense = moeLayers * layerDense + denseLayers * (attention + norms + denseMlpLayer) + embedding;
        double expert = moeLayers * expertMlp;
        double linear = moeLayers * (attention + denseMlp + expertMlp) + denseLayers * (attention + denseMlpLayer);
        int denseShards = plan.dp() * plan.cp();
        int expertShards = Math.max(1, plan.tp() * plan.cp() * plan.dp() / (plan.ep() * expertTensorParallel(plan)));
        return new StageParameters(dense, expert, linear, layerDense + expertMlp, embedding, denseShards,
                expertShards);
    }

    /** Expert tensor-parallel size: tp when experts are split like dense layers, else 1 (experts whole per rank). */
    public static int expertTensorParallel(TrainingPlan plan) {
        return plan.software().expertTensorParallel() ? plan.tp() : 1;
    }

    /** All parameters on the device. */
    public double total() {
        return dense + expert;
    }
}
