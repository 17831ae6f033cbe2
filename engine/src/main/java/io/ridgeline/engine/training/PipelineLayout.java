package io.ridgeline.engine.training;

import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * How the transformer layers fall on the pipeline stages, the way Megatron-core splits them
 * (megatron/core/transformer/transformer_block.py get_num_layers_to_build, core_v0.15):
 * <ul>
 *   <li>layers divisible by the p x v model chunks: an even split;</li>
 *   <li>otherwise, when layers + 2 are, the embedding and the loss count as one pipeline layer each
 *       ({@code account_for_embedding_in_pipeline_split}, {@code account_for_loss_in_pipeline_split}, set by the
 *       Megatron-Bridge Llama 3.1 405B recipes: 126 + 2 over 16 x 8 chunks): the first stage holds one transformer
 *       layer fewer beside the embedding, the last one fewer beside the LM head and loss;</li>
 *   <li>otherwise an uneven split ({@code num_layers_in_first/last_pipeline_stage}, or a custom layout such as
 *       DeepSeek-V3's): every stage is charged the most loaded one's ceil(L/p) layers.</li>
 * </ul>
 * Static and allocation-free: it runs once per evaluation.
 */
final class PipelineLayout {
    private PipelineLayout() {
    }

    /** True when the embedding and the loss are counted as pipeline layers (and only then does the split work). */
    static boolean accountsForEdges(ModelSpec m, TrainingPlan plan) {
        return ShapeRules.edgesArePipelineLayers(m.layers(), plan.pp(), plan.vpp());
    }

    /** Layers of the most loaded stage that holds neither the embedding nor the loss. */
    static double middleLayers(ModelSpec m, TrainingPlan plan) {
        return accountsForEdges(m, plan) ? (m.layers() + 2.0) / plan.pp() : Math.ceil((double) m.layers() / plan.pp());
    }

    /** Transformer layers of the first stage (beside the embedding) and of the last (beside the LM head and loss). */
    static double edgeLayers(ModelSpec m, TrainingPlan plan) {
        return middleLayers(m, plan) - (accountsForEdges(m, plan) ? 1 : 0);
    }
}
