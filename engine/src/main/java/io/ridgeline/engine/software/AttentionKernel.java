package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.LowerCaseId;

/** How a stack computes the attention core (the s x s part). */
public enum AttentionKernel implements LowerCaseId {
    /** Batched QK^T and score x V GEMMs around a softmax that writes and reads the s x s scores (Megatron 2021-22). */
    UNFUSED,
    /** FlashAttention-2 (Dao 2023): tiled, no s x s tensor in memory, backward recomputes the scores. */
    FLASH2,
    /** FlashAttention-3 (Shah et al. 2024): FlashAttention-2's algorithm on Hopper TMA/WGMMA, asynchronous softmax. */
    FLASH3,
    /** cuDNN fused attention as Transformer Engine calls it (FlashAttention-style, vendor kernels). */
    CUDNN,
    /**
     * The FlashAttention algorithm written in Triton (the FlashAttention repository's flash_attn_triton kernel, with
     * an additive bias for ALiBi), as MPT/llm-foundry used it in 2023: fused, but slower than FlashAttention-2.
     */
    TRITON;

    /** True for every kernel that keeps no s x s tensor (all but {@link #UNFUSED}). */
    public boolean fused() {
        return this != UNFUSED;
    }
}
