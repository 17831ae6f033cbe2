package io.ridgeline.engine.workload;

/**
 * A decoder-only transformer architecture.
 *
 * @param ffn            MLP intermediate width (for MoE: see {@link MoeSpec#expertFfn()}; this is then the dense
 *                       layers' width, unused when every layer is MoE)
 * @param tiedEmbeddings input embedding and LM head share one matrix
 * @param moe            null for dense models
 */
public record ModelSpec(String name, int layers, int hidden, int heads, int kvHeads, long ffn, MlpType mlp, int vocab,
                        int maxSeqLen, boolean tiedEmbeddings, MoeSpec moe, String source) {

    public ModelSpec {
        if (layers < 1 || hidden < 1 || heads < 1 || kvHeads < 1 || ffn < 1 || vocab < 1 || maxSeqLen < 1) {
            throw new IllegalArgumentException("model sizes must be positive: " + name);
        }
        if (hidden % heads != 0) {
            throw new IllegalArgumentException("hidden " + hidden + " is not divisible by heads " + heads + ": " + name);
        }
        if (heads % kvHeads != 0) {
            throw new IllegalArgumentException("heads " + heads + " not divisible by kv_heads " + kvHeads + ": " + name);
        }
    }

    public int headDim() {
        return hidden / heads;
    }

    /** Width of the K (and of the V) projection output. */
    public long kvWidth() {
        return (long) kvHeads * headDim();
    }

    public boolean isMoe() {
        return moe != null;
    }

    /** Attention weights per layer: Q and O are h x h, K and V are h x kvWidth. */
    public double attentionParamsPerLayer() {
        return 2.0 * hidden * hidden + 2.0 * hidden * kvWidth();
    }

    /** MLP weights per layer (all experts for MoE, plus the router). */
    public double mlpParamsPerLayer() {
        if (moe == null) {
            return (double) mlp.matrices() * hidden * ffn;
        }
        return (double) mlp.matrices() * hidden * moe.expertFfn() * (moe.experts() + moe.sharedExperts())
                + (double) hidden * moe.experts();
    }

    /** MLP weights a single token touches per layer. */
    public double activeMlpParamsPerLayer() {
        if (moe == null) {
            return mlpParamsPerLayer();
        }
        return (double) mlp.matrices() * hidden * moe.expertFfn() * moe.activeExpertsPerToken()
                + (double) hidden * moe.experts();
    }

    /** Norm weights per layer (two norms of size h; biases ignored). */
    public double normParamsPerLayer() {
        return 2.0 * hidden;
    }

    public double embeddingParams() {
        return (double) vocab * hidden * (tiedEmbeddings ? 1 : 2);
    }

    /** All weights. */
    public double totalParams() {
        return layers * (attentionParamsPerLayer() + mlpParamsPerLayer() + normParamsPerLayer()) + embeddingParams()
                + hidden;
    }

    /** Weights touched per token (differs from total for MoE). */
    public double activeParams() {
        return layers * (attentionParamsPerLayer() + activeMlpParamsPerLayer() + normParamsPerLayer())
                + embeddingParams() + hidden;
    }
}
