package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.ops.MemoryBoundOp;

/**
 * The ends of the model for one micro-batch: the vocabulary-parallel input embedding on the first stage, and the final
 * norm, vocabulary-parallel LM head and cross-entropy on the last (Megatron-LM; Narayanan et al. 2021 sec. 2.3).
 */
record HeadTime(GemmModel gemm, MemoryBoundOp memory, CollectiveModel collectives) {
    /** Embedding lookup forward and its gradient scatter in backward, with the TP reduction of the lookup. */
    Cost embedding(LayerShape s) {
        double outBytes = s.activationBytes();
        double mem = memory.seconds(outBytes, 0, 1) + memory.seconds(outBytes * 3, outBytes, 1);
        double comm = s.plan().sp() ? collectives.reduceScatter(outBytes, s.tp()) : collectives.allReduce(outBytes,
                s.tp());
        return new Cost(0, mem, comm, 0, 0, 0, s.tp().crossesDomains());
    }

    /**
     * LM head and loss, forward and backward: logits GEMM [tokens, h] x [h, V/t] (dgrad and wgrad in backward, in 16
     * bits: the output layer is not an FP8 GEMM); cross-entropy in fp32 over the logits as eager PyTorch runs it
     * (autocast lists cross_entropy/log_softmax as fp32 ops): cast the 16-bit logits up (read 2, write 4), log-softmax
     * (read 4, write 4), the target gather (read 4); backward writes the dense fp32 gradient (4), log-softmax backward
     * (read 4 + 4, write 4) and casts it down (read 4, write 2): 40 B per logit. A fused kernel reads the 16-bit
     * logits twice and writes the gradient in place. Then a final norm, and under SP an all-gather of the last hidden
     * state.
     */
    Cost head(LayerShape s, int vocab) {
        Precision p = s.plan().precision() == Precision.FP8 || s.plan().precision() == Precision.FP4 ? Precision.BF16
                : s.plan().precision();
        double v = (double) vocab / s.plan().tp();
        double t = s.tokens();
        double h = s.hidden();
        double gemms = gemm.seconds(t, v, h, p) + gemm.seconds(t, h, v, p) + gemm.seconds(h, v, t, p);
        double logits = t * v;
        double loss = s.plan().software().fusedCrossEntropy()
                ? memory.seconds(logits * (2 + 2 + 2), logits * 6, 2)
                : memory.seconds(logits * (2 + 4 + 4 + 4 + 4), logits * 6, 3)
                + memory.seconds(logits * (4 + 4 + 4 + 4 + 4 + 2), logits, 3);
        double mem = loss + memory.seconds(3 * 4 * h * s.normTokens(), 0, 2);
        double comm = s.plan().sp() ? collectives.repeat(2, collectives.allGather(s.activationBytes(), s.tp())) : 0;
        // Vocabulary-parallel cross-entropy reduces max, sum and target logit over TP: three tiny all-reduces.
        comm += collectives.repeat(3, collectives.allReduce(t * 4, s.tp()));
        return new Cost(gemms, mem, comm, 0, 0, 0, s.tp().crossesDomains());
    }
}
