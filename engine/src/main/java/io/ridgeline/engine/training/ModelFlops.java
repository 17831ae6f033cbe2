package io.ridgeline.engine.training;

import io.ridgeline.engine.workload.ModelSpec;

/** Model FLOPs of a training step: the work the model needs, independent of recomputation or parallelism. */
public final class ModelFlops {
    private ModelFlops() {
    }

    /**
     * Forward FLOPs per sequence: 2 per weight per token for the layers (active experts only) and the LM head, plus
     * 2·s·(q/k width + v width) per token per layer for QK^T and score x V over the full s x s (Megatron convention;
     * Korthikanti et al. 2022 App. A: 4·s·h for standard heads), over the window on sliding-window layers.
     */
    public static double forwardPerSequence(ModelSpec m, int seqLen) {
        double core = 2.0 * m.attendedKeys(seqLen) * m.heads() * (m.headDim() + m.valueHeadDim());
        double perToken = m.activeParams() - m.embeddingParams() - m.hidden() - m.layers() * m.normParamsPerLayer();
        double perTokenLayers = 2 * perToken + m.layers() * core;
        double perTokenHead = 2.0 * m.hidden() * m.vocab();
        return seqLen * (perTokenLayers + perTokenHead);
    }

    /**
     * Model FLOPs per step: forward + backward (2x forward) = 3x forward. For GPT this equals Korthikanti et al. 2022
     * eq. 7: 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h)).
     */
    public static double perStep(ModelSpec m, int seqLen, long globalBatch) {
        return 3 * globalBatch * forwardPerSequence(m, seqLen);
    }
}
