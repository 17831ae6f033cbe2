package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.LowerCaseId;

/**
 * The generation-phase (decode) attention kernel of a serving runtime, and what it reads. A decode step reads each
 * sequence's cached K and V; with grouped-query attention several query heads share one KV head, and whether the
 * kernel reads that KV head once per group or once per query head decides the step's KV traffic.
 */
public enum DecodeAttention implements LowerCaseId {
    /**
     * Masked multi-head attention (FasterTransformer / TensorRT-LLM {@code decoderMaskedMultiheadAttention}): one
     * thread block per (sequence, query head) streams its KV head, so a KV head is read once per query head of its
     * group (TensorRT-LLM 0.8 docs/source/gpt_attention.md, "Generation Phase"; the XQA blog,
     * docs/source/blogs/XQA-kernel.md: XQA "reduces data loading" for MQA/GQA and gave 2.4x Llama-70B throughput).
     */
    MASKED_MHA,
    /**
     * TensorRT-LLM 0.8-0.9 XQA: grouped reads on tensor cores, but only for head size 128 with 8 query heads per KV
     * head (cpp/tensorrt_llm/kernels/decoderMaskedMultiheadAttention/decoderXQARunner.h, shouldUse: head_size == 128,
     * nbQHeadsPerKV == 8); every other shape falls back to {@link #MASKED_MHA}.
     */
    XQA_HEAD128_GROUP8,
    /**
     * Each KV head read once per group: XQA JIT kernels (head size a multiple of 16 up to 256, up to 32 query heads
     * per KV head: decoderXQAImplJIT kernelUtils supportConfigHMMA/QGMMA), FlashAttention / FlashInfer decode.
     */
    GROUPED;

    /**
     * How many times a decode step reads each cached KV head: 1 when the kernel shares it across its group, else the
     * number of query heads per KV head on the rank.
     *
     * @param headDim         per-head width
     * @param queryHeadsPerKv query heads sharing one KV head on a rank
     */
    public double kvReadsPerKvHead(int headDim, double queryHeadsPerKv) {
        boolean grouped = switch (this) {
            case GROUPED -> true;
            case XQA_HEAD128_GROUP8 -> headDim == 128 && queryHeadsPerKv == 8;
            case MASKED_MHA -> false;
        };
        return grouped ? 1 : Math.max(1, queryHeadsPerKv);
    }
}
