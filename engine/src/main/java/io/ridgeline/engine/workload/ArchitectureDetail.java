package io.ridgeline.engine.workload;

/**
 * What a public model configuration states beyond the case format's shape columns: a head width other than
 * hidden / heads (Qwen3, GPT-OSS), leading dense layers in an MoE model (DeepSeek-V3), sliding-window attention on a
 * share of the layers (GPT-OSS), multi-head latent attention (DeepSeek-V3).
 *
 * @param headDim           per-head query/key/value width; 0 = hidden / heads
 * @param denseLayers       leading layers whose feed-forward is dense (width {@link ModelSpec#ffn()}) in an MoE model
 * @param slidingWindow     keys a query of a sliding-window layer attends to; 0 = none
 * @param slidingLayerShare share of the layers that use the sliding window
 * @param mla               multi-head latent attention, or null
 * @param squaredRelu       the two-matrix MLP's activation is squared ReLU (Nemotron), which Megatron-core applies as
 *                          two eager kernels (relu, then pow) without a fused bias-activation kernel
 * @param noDropout         the model's published training configuration sets hidden and attention dropout to 0
 *                          (overrides a stack's dropout for two-matrix MLP models)
 * @param yarnRope          rotary embeddings with YaRN scaling (position_embedding_type "yarn", GPT-OSS), which a
 *                          stack may not fuse (TrainingBehaviour.yarnRopeFusion)
 * @param expertBias        the routed experts' linear layers carry biases (GPT-OSS), which a stack adds in the
 *                          grouped GEMM or in an eager per-expert loop (TrainingBehaviour.moeExpertBias)
 * @param mxfp4Experts      the published checkpoint ships the routed experts in MXFP4 and every other layer in bf16
 *                          (GPT-OSS); a serving runtime may run that checkpoint as shipped whatever a benchmark's
 *                          precision label says (ServingBehaviour.mxfp4MoeW4a16)
 * @param clampedGlu        the gated MLP clamps its inputs before the activation (GPT-OSS: gate at most 7, linear half
 *                          within +-7; HF config swiglu_limit 7.0), which a stack may not fuse
 *                          (TrainingBehaviour.gluClampFusion)
 */
public record ArchitectureDetail(int headDim, int denseLayers, int slidingWindow, double slidingLayerShare,
                                 MlaSpec mla, boolean squaredRelu, boolean noDropout, boolean yarnRope,
                                 boolean expertBias, boolean mxfp4Experts, boolean clampedGlu) {

    /** Detail without a clamped GLU. */
    public ArchitectureDetail(int headDim, int denseLayers, int slidingWindow, double slidingLayerShare, MlaSpec mla,
                              boolean squaredRelu, boolean noDropout, boolean yarnRope, boolean expertBias,
                              boolean mxfp4Experts) {
        this(headDim, denseLayers, slidingWindow, slidingLayerShare, mla, squaredRelu, noDropout, yarnRope, expertBias,
                mxfp4Experts, false);
    }

    /** Detail without the checkpoint's expert format. */
    public ArchitectureDetail(int headDim, int denseLayers, int slidingWindow, double slidingLayerShare, MlaSpec mla,
                              boolean squaredRelu, boolean noDropout, boolean yarnRope, boolean expertBias) {
        this(headDim, denseLayers, slidingWindow, slidingLayerShare, mla, squaredRelu, noDropout, yarnRope, expertBias,
                false);
    }

    /** Detail without activation, dropout, rotary or bias information. */
    public ArchitectureDetail(int headDim, int denseLayers, int slidingWindow, double slidingLayerShare, MlaSpec mla) {
        this(headDim, denseLayers, slidingWindow, slidingLayerShare, mla, false, false, false, false);
    }

    /** Detail without rotary or bias information. */
    public ArchitectureDetail(int headDim, int denseLayers, int slidingWindow, double slidingLayerShare, MlaSpec mla,
                              boolean squaredRelu, boolean noDropout) {
        this(headDim, denseLayers, slidingWindow, slidingLayerShare, mla, squaredRelu, noDropout, false, false);
    }

    public ArchitectureDetail {
        if (headDim < 0 || denseLayers < 0 || slidingWindow < 0 || slidingLayerShare < 0 || slidingLayerShare > 1) {
            throw new IllegalArgumentException("invalid architecture detail");
        }
    }

    /** True when nothing here differs from what the shape columns imply. */
    public boolean isEmpty() {
        return headDim == 0 && denseLayers == 0 && slidingWindow == 0 && mla == null && !squaredRelu && !noDropout
                && !yarnRope && !expertBias && !mxfp4Experts && !clampedGlu;
    }

    /** One line for outcome notes: "head_dim 128, MLA, 3 dense layers". */
    public String describe() {
        StringBuilder b = new StringBuilder();
        if (headDim > 0) {
            b.append("head_dim ").append(headDim);
        }
        if (mla != null) {
            b.append(b.isEmpty() ? "" : ", ").append("MLA (q/kv latents ").append(mla.qLoraRank()).append('/')
                    .append(mla.kvLoraRank()).append(')');
        }
        if (denseLayers > 0) {
            b.append(b.isEmpty() ? "" : ", ").append(denseLayers).append(" leading dense layers");
        }
        if (slidingWindow > 0) {
            b.append(b.isEmpty() ? "" : ", ").append("sliding window ").append(slidingWindow).append(" on ")
                    .append(Math.round(slidingLayerShare * 100)).append("% of layers");
        }
        if (squaredRelu) {
            b.append(b.isEmpty() ? "" : ", ").append("squared-ReLU MLP");
        }
        if (noDropout) {
            b.append(b.isEmpty() ? "" : ", ").append("no dropout");
        }
        if (yarnRope) {
            b.append(b.isEmpty() ? "" : ", ").append("YaRN rotary");
        }
        if (expertBias) {
            b.append(b.isEmpty() ? "" : ", ").append("expert biases");
        }
        if (clampedGlu) {
            b.append(b.isEmpty() ? "" : ", ").append("clamped GLU");
        }
        return b.toString();
    }
}
