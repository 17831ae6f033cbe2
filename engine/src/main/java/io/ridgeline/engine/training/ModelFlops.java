package io.ridgeline.engine.training;

import io.ridgeline.engine.workload.ModelSpec;

/** Model FLOPs of a training step: the work the model needs, independent of recomputation or parallelism. */
public final class ModelFlops {
    private ModelFlops() {
    }

    /**
     * Forward FLOPs per sequence: 2 per weight per token for the layers (active experts only) and the LM head, plus
     * 4·s·h per token per layer for QK^T and score x V over the full s x s (Megatron convention; Korthikanti et al.
     * 2022 App. A).
     */
    public static double forwardPerSequence(ModelSpec m, int seqLen) {
        double perTokenLayer = 2 * (m.attentionParamsPerLayer() + m.activeMlpParamsPerLayer())
                + 4.0 * seqLen * m.hidden();
        double perTokenHead = 2.0 * m.hidden() * m.vocab();
        return seqLen * (m.layers() * perTokenLayer + perTokenHead);
    }

    /**
     * Model FLOPs per step: forward + backward (2x forward) = 3x forward. For GPT this equals Korthikanti et al. 2022
     * eq. 7: 72·B·s·l·h²·(1 + s/(6h) + V/(12·l·h)).
     */
    public static double perStep(ModelSpec m, int seqLen, long globalBatch) {
        return 3 * globalBatch * forwardPerSequence(m, seqLen);
    }
}
