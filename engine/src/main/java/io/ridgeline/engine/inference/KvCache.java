package io.ridgeline.engine.inference;

import io.ridgeline.engine.workload.ModelSpec;

/**
 * KV-cache sizes (MODEL.md sec. 6): {@code 2 · layers · kv_heads · head_dim · context · batch · bytes}, divided over
 * the tensor-parallel ranks. When TP exceeds the KV heads (GQA/MQA), each rank keeps one full KV head: heads are
 * replicated, not split (TensorRT-LLM and vLLM do this), so a rank holds ceil(kv_heads / tp) heads.
 */
public final class KvCache {
    private KvCache() {
    }

    /** KV heads stored on each tensor-parallel rank. */
    public static int kvHeadsPerRank(ModelSpec model, int tp) {
        return model.kvHeadsPerRank(tp);
    }

    /** K and V bytes of one token in one layer on one rank. */
    public static double bytesPerTokenPerLayer(ModelSpec model, int tp, double bytesPerElement) {
        return 2.0 * kvHeadsPerRank(model, tp) * model.headDim() * bytesPerElement;
    }

    /** Bytes of the whole cache on one rank: {@code layers} of them (a pipeline stage's share), at the given context. */
    public static double bytesPerGpu(ModelSpec model, int tp, int layers, double contextTokens, double batch,
                                     double bytesPerElement) {
        return bytesPerTokenPerLayer(model, tp, bytesPerElement) * layers * contextTokens * batch;
    }
}
