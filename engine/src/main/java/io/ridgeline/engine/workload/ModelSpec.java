package io.ridgeline.engine.workload;

/**
 * A decoder-only transformer architecture.
 *
 * @param ffn            MLP intermediate width (for MoE: see {@link MoeSpec#expertFfn()}; this is then the dense
 *                       layers' width, unused when every layer is MoE)
 * @param tiedEmbeddings input embedding and LM head share one matrix
 * @param moe            null for dense models
 * @param detail         what the public configuration adds to the shape (head width, MLA, dense leading layers,
 *                       sliding window); null when the shape says it all
 */
public record ModelSpec(String name, int layers, int hidden, int heads, int kvHeads, long ffn, MlpType mlp, int vocab,
                        int maxSeqLen, boolean tiedEmbeddings, MoeSpec moe, String source, ArchitectureDetail detail) {

    public ModelSpec {
        if (layers < 1 || hidden < 1 || heads < 1 || kvHeads < 1 || ffn < 1 || vocab < 1 || maxSeqLen < 1) {
            throw new IllegalArgumentException("model sizes must be positive: " + name);
        }
        boolean explicitHead = detail != null && (detail.headDim() > 0 || detail.mla() != null);
        if (!explicitHead && hidden % heads != 0) {
            throw new IllegalArgumentException("hidden " + hidden + " is not divisible by heads " + heads + ": " + name);
        }
        if (heads % kvHeads != 0) {
            throw new IllegalArgumentException("heads " + heads + " not divisible by kv_heads " + kvHeads + ": " + name);
        }
        if (detail != null && detail.isEmpty()) {
            detail = null;
        }
    }

    /** A model whose shape columns say it all (no {@link ArchitectureDetail}). */
    public ModelSpec(String name, int layers, int hidden, int heads, int kvHeads, long ffn, MlpType mlp, int vocab,
                     int maxSeqLen, boolean tiedEmbeddings, MoeSpec moe, String source) {
        this(name, layers, hidden, heads, kvHeads, ffn, mlp, vocab, maxSeqLen, tiedEmbeddings, moe, source, null);
    }

    /** The same model with its public configuration's detail. */
    public ModelSpec withDetail(ArchitectureDetail d) {
        return new ModelSpec(name, layers, hidden, heads, kvHeads, ffn, mlp, vocab, maxSeqLen, tiedEmbeddings, moe,
                source, d);
    }

    /** Multi-head latent attention, or null. */
    public MlaSpec mla() {
        return detail == null ? null : detail.mla();
    }

    /** Per-head query/key width. */
    public int headDim() {
        if (detail != null && detail.mla() != null) {
            return detail.mla().qkHeadDim();
        }
        return detail != null && detail.headDim() > 0 ? detail.headDim() : hidden / heads;
    }

    /** Per-head value width (differs from {@link #headDim()} only under MLA). */
    public int valueHeadDim() {
        return detail != null && detail.mla() != null ? detail.mla().vHeadDim() : headDim();
    }

    /** Query width: heads x head width (hidden, unless the configuration sets another head width). */
    public long qWidth() {
        return (long) heads * headDim();
    }

    /** Width of the K (and of the V) projection output. */
    public long kvWidth() {
        if (detail != null && detail.mla() != null) {
            return (long) heads * (headDim() + valueHeadDim()) / 2;
        }
        return (long) kvHeads * headDim();
    }

    /** The model trains with dropout when its stack does for two-matrix MLP models, unless its configuration says 0. */
    public boolean trainsWithDropout(boolean stackDropout) {
        return stackDropout && mlp == MlpType.GELU && (detail == null || !detail.noDropout());
    }

    /** The MLP activation is squared ReLU (two eager kernels in Megatron-core). */
    public boolean squaredRelu() {
        return detail != null && detail.squaredRelu();
    }

    /** Rotary embeddings with YaRN scaling (GPT-OSS). */
    public boolean yarnRope() {
        return detail != null && detail.yarnRope();
    }

    /** The gated MLP clamps its inputs before the activation (GPT-OSS swiglu_limit). */
    public boolean clampedGlu() {
        return detail != null && detail.clampedGlu();
    }

    /** The routed experts carry biases (GPT-OSS). */
    public boolean expertBias() {
        return moe != null && detail != null && detail.expertBias();
    }

    /** Leading layers with a dense feed-forward in an MoE model. */
    public int denseLayers() {
        return moe == null || detail == null ? 0 : Math.min(layers, detail.denseLayers());
    }

    public boolean isMoe() {
        return moe != null;
    }

    /** Attention weights per layer: Q, K, V and O projections (or MLA's latent projections). */
    public double attentionParamsPerLayer() {
        MlaSpec mla = mla();
        if (mla != null) {
            return mla.params(hidden, heads);
        }
        return 2.0 * hidden * qWidth() + 2.0 * hidden * kvWidth();
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

    /** MLP weights of one leading dense layer of an MoE model. */
    public double denseMlpParamsPerLayer() {
        return (double) mlp.matrices() * hidden * ffn;
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
        int dense = denseLayers();
        return layers * (attentionParamsPerLayer() + normParamsPerLayer()) + (layers - dense) * mlpParamsPerLayer()
                + dense * denseMlpParamsPerLayer() + embeddingParams() + hidden;
    }

    /** Weights touched per token (differs from total for MoE). */
    public double activeParams() {
        int dense = denseLayers();
        return layers * (attentionParamsPerLayer() + normParamsPerLayer())
                + (layers - dense) * activeMlpParamsPerLayer() + dense * denseMlpParamsPerLayer()
                + embeddingParams() + hidden;
    }

    /**
     * Keys an average query attends to, counted over the full s x s (Megatron's FLOP convention): s, or the window
     * on sliding-window layers (averaged over the layers).
     */
    public double attendedKeys(int seqLen) {
        if (detail == null || detail.slidingWindow() == 0) {
            return seqLen;
        }
        double share = detail.slidingLayerShare();
        return (1 - share) * seqLen + share * Math.min(seqLen, detail.slidingWindow());
    }

    /** Keys an average query attends to under the causal mask: s/2, or the window on sliding-window layers. */
    public double causalKeys(int seqLen) {
        if (detail == null || detail.slidingWindow() == 0) {
            return seqLen / 2.0;
        }
        double share = detail.slidingLayerShare();
        return (1 - share) * seqLen / 2.0 + share * Math.min(seqLen, detail.slidingWindow());
    }

    /** KV heads stored on each tensor-parallel rank: split when kv_heads >= tp, one replicated head otherwise. */
    public int kvHeadsPerRank(int tp) {
        return (kvHeads() + tp - 1) / tp;
    }
}
