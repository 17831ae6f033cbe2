package io.ridgeline.engine.inference;

/**
 * One decode step of a batch at a given context, and the sum over a generation (MODEL.md sec. 7). Per layer: the local
 * weights are read once (GEMMs with M = batch), each sequence reads its KV cache, elementwise kernels stream a few
 * vectors; every kernel pays a fixed cost and TP adds two small all-reduces. Per step: the LM head, sampling and the
 * host. The step time is affine in the context except where attention turns compute-bound, so the sum over a
 * generation uses a few midpoint segments instead of one evaluation per token.
 */
final class DecodeTime {
    /** Midpoint segments per generation: exact for an affine step time, within 0.1% otherwise. */
    static final int SEGMENTS = 4;

    private final Replica r;

    DecodeTime(Replica r) {
        this.r = r;
    }

    /** Seconds of one decode step of {@code batch} sequences each attending over {@code context} tokens. */
    double stepSeconds(double batch, double context, Breakdown acc, double weight) {
        double t = 0;
        // Sequences of one attention group: the ep groups of a stage run their shares of the batch side by side.
        double b = r.sequencesPerGroup(batch);
        // Layers of one stage; stages run one after another for a single batch.
        double perLayer = 0;
        for (int i = 0; i < r.gemmN.length; i++) {
            perLayer += r.smallGemmSeconds(b, r.gemmN[i], r.gemmK[i], 1, acc, weight * r.layers);
        }
        if (r.moe) {
            // The busiest EP rank reads the weights of the experts the whole stage's batch touches on it.
            double touched = r.localExpertsTouched(r.distinctRoutedTokens(batch));
            double tokensPerExpert = r.localExpertTokens(batch) / touched;
            perLayer += r.expertGemmSeconds(tokensPerExpert, r.expertUpN, r.hidden, touched, acc, weight * r.layers);
            perLayer += r.expertGemmSeconds(tokensPerExpert, r.hidden, r.expertDownK, touched, acc, weight * r.layers);
            // Dispatch and combine of the group's tokens (all-to-all, or all-gather and reduce-scatter).
            perLayer += r.moeExchangeSeconds(b, acc, weight * r.layers);
            double moeKernels = FixedCosts.MOE_EXTRA_KERNELS_PER_LAYER * r.fixed.perKernelSeconds();
            acc.overhead(moeKernels, weight * r.layers);
            perLayer += moeKernels;
        }
        // Decode attention: stream each sequence's K and V (once per query head for a per-head kernel); flops
        // 4 * context * local heads * head dim per token.
        double attnBytes = b * (2 * context * r.kvWidthLocal * r.kvBytes * r.decodeKvReads
                + 2 * r.headsLocal * r.headDim * r.actBytes);
        double attnMemory = attnBytes / r.dramBytesPerSecond;
        double attnCompute = 4 * b * context * r.headsLocal * r.headDim / r.attentionFlopsPerSecond;
        double attn = Math.max(attnMemory, attnCompute);
        acc.kernel(attn, attnCompute, attnMemory, weight * r.layers);
        acc.traffic(4 * b * context * r.headsLocal * r.headDim, attnBytes, weight * r.layers);
        double elementwise = b * r.elementwiseBytesPerToken / r.dramBytesPerSecond;
        acc.kernel(elementwise, 0, elementwise, weight * r.layers);
        acc.traffic(0, b * r.elementwiseBytesPerToken, weight * r.layers);
        double kernels = FixedCosts.DECODE_KERNELS_PER_LAYER * r.fixed.perKernelSeconds();
        acc.overhead(kernels, weight * r.layers);
        // Two all-reduces per layer (after attention and after the MLP), Megatron TP.
        double allReduce = r.tpAllReduceSeconds(b * r.hidden * r.actBytes, acc, 2 * weight * r.layers);
        perLayer += attn + elementwise + kernels + 2 * allReduce;
        t += r.layers * perLayer;

        // Once per step: LM head over the local vocabulary shard, gathering the logits over TP, sampling, host work.
        t += r.headSeconds(b, acc, weight);
        t += r.tpAllReduceSeconds(b * r.vocabLocal * 4, acc, weight);
        double stepFixed = FixedCosts.DECODE_KERNELS_PER_STEP * r.fixed.perKernelSeconds()
                + r.fixed.hostSecondsPerStep();
        acc.overhead(stepFixed, weight);
        t += stepFixed;
        t += r.pipelineSeconds(b * r.hidden * r.actBytes, acc, weight);
        return t;
    }

    /**
     * Sum of the decode steps that generate tokens 2..{@code outputTokens} (the first comes out of prefill): step i
     * attends over inputTokens + i tokens.
     */
    double generationSeconds(double batch, int inputTokens, int outputTokens, Breakdown acc, double weight) {
        int steps = outputTokens - 1;
        if (steps <= 0) {
            return 0;
        }
        int segments = Math.min(SEGMENTS, steps);
        double total = 0;
        int done = 0;
        for (int s = 0; s < segments; s++) {
            int n = (int) ((long) steps * (s + 1) / segments) - done;
            // Steps done+1 .. done+n; their mean context is inputTokens + done + (n + 1) / 2.
            double meanContext = inputTokens + done + (n + 1) / 2.0;
            total += n * stepSeconds(batch, meanContext, acc, weight * n);
            done += n;
        }
        return total;
    }
}
