package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Precision;

/**
 * Prefill of a static batch: every prompt token through every layer with GEMMs of M = batch x input tokens on the
 * hierarchical roofline ({@code ops.GemmModel}), causal attention fused (FlashAttention: flops at the family's
 * measured fused-attention rate) or unfused (two batched GEMMs and a softmax over the s x s scores), elementwise
 * kernels memory-bound, two TP all-reduces of the activations per layer; then the LM head on the last token of each
 * sequence and sampling. Produces the first output token.
 */
final class PrefillTime {
    private final Replica r;

    PrefillTime(Replica r) {
        this.r = r;
    }

    double seconds(double stageBatch, double inputTokens, Breakdown acc, double weight) {
        // Sequences of one attention group (ep groups prefill their shares of the batch side by side).
        double batch = r.sequencesPerGroup(stageBatch);
        double m = batch * inputTokens;
        double perLayer = 0;
        double launch = r.chip.family().kernelLaunchSeconds();
        for (int i = 0; i < r.gemmN.length; i++) {
            perLayer += gemm(1, m, r.gemmN[i], r.gemmK[i], r.compute, r.weightBytes, acc, weight * r.layers);
        }
        if (r.moe) {
            // The busiest EP rank runs its touched experts on the stage's token copies routed to it.
            double stageTokens = stageBatch * inputTokens;
            double touched = r.localExpertsTouched(r.distinctRoutedTokens(stageTokens));
            double tokensPerExpert = r.localExpertTokens(stageTokens) / touched;
            perLayer += gemm(touched, tokensPerExpert, r.expertUpN, r.hidden, r.expertPrecision, r.expertWeightBytes,
                    acc, weight * r.layers);
            perLayer += gemm(touched, tokensPerExpert, r.hidden, r.expertDownK, r.expertPrecision, r.expertWeightBytes,
                    acc, weight * r.layers);
            // Dispatch and combine of the group's tokens, and the router's top-k / permute kernels.
            perLayer += r.moeExchangeSeconds(m, acc, weight * r.layers);
            double moeKernels = FixedCosts.MOE_EXTRA_KERNELS_PER_LAYER * launch;
            acc.overhead(moeKernels, weight * r.layers);
            perLayer += moeKernels;
        }
        perLayer += attention(batch, inputTokens, acc, weight);
        double elementwiseBytes = m * r.elementwiseBytesPerToken;
        double elementwise = r.memoryOp.seconds(elementwiseBytes, 0, FixedCosts.PREFILL_ELEMENTWISE_KERNELS_PER_LAYER);
        double elementwiseLaunch = FixedCosts.PREFILL_ELEMENTWISE_KERNELS_PER_LAYER * launch;
        acc.kernel(elementwise - elementwiseLaunch, 0, 1, weight * r.layers);
        acc.traffic(0, elementwiseBytes, weight * r.layers);
        acc.overhead(elementwiseLaunch, weight * r.layers);
        perLayer += elementwise;
        perLayer += 2 * r.tpAllReduceSeconds(m * r.hidden * r.actBytes, acc, 2 * weight * r.layers);
        double t = r.layers * perLayer;
        // Embedding gather, final norm, LM head for the last position of each sequence, logits gather, sampling.
        t += headGemm(batch, acc, weight);
        t += r.tpAllReduceSeconds(batch * r.vocabLocal * 4, acc, weight);
        double stepFixed = FixedCosts.DECODE_KERNELS_PER_STEP * r.fixed.perKernelSeconds() + r.fixed.hostSecondsPerStep();
        acc.overhead(stepFixed, weight);
        t += stepFixed;
        t += r.pipelineSeconds(m * r.hidden * r.actBytes, acc, weight);
        return t;
    }

    /** The LM head in its 16-bit format ({@link Replica#head}); its launch goes to overhead. */
    private double headGemm(double m, Breakdown acc, double times) {
        double t = r.gemm.seconds(1, m, r.vocabLocal, r.hidden, r.head);
        double launch = r.chip.family().kernelLaunchSeconds();
        double flops = 2 * m * r.vocabLocal * r.hidden;
        double bytes = r.vocabLocal * r.hidden * r.headWeightBytes + m * (r.vocabLocal + r.hidden) * r.actBytes;
        acc.kernel(t - launch, flops / r.headFlopsPerSecond, bytes / r.dramBytesPerSecond, times);
        acc.traffic(flops, bytes, times);
        acc.overhead(launch, times);
        return t;
    }

    /**
     * A (batched) GEMM on the roofline; its launch goes to overhead, the rest to compute or memory. {@code times}: how
     * often it runs in the pass (layers x weight).
     */
    private double gemm(double count, double m, double n, double k, Precision p, double weightBytes, Breakdown acc,
                        double times) {
        double t = r.gemm.seconds(count, m, n, k, p);
        double launch = r.chip.family().kernelLaunchSeconds();
        double flops = 2 * count * m * n * k / r.gemmFlopsPerSecond;
        double bytes = count * (n * k * weightBytes + m * (n + k) * r.actBytes) / r.dramBytesPerSecond;
        acc.kernel(t - launch, flops, bytes, times);
        acc.traffic(2 * count * m * n * k, bytes * r.dramBytesPerSecond, times);
        acc.overhead(launch, times);
        return t;
    }

    private double attention(double batch, double s, Breakdown acc, double weight) {
        double launch = r.chip.family().kernelLaunchSeconds();
        // Causal: half of the s x s score matrix; QK^T and PV each 2 * s^2 * head_dim flops per head.
        double flops = 0.5 * 4 * batch * s * s * r.headsLocal * r.headDim;
        if (r.plan.fusedAttention()) {
            double bytes = batch * s * (2 * r.headsLocal * r.headDim * r.actBytes + 2 * r.kvWidthLocal * r.kvBytes);
            double c = flops / r.attentionFlopsPerSecond;
            double mem = bytes / r.dramBytesPerSecond;
            double t = Math.max(c, mem);
            acc.kernel(t, c, mem, weight * r.layers);
            acc.traffic(flops, bytes, weight * r.layers);
            acc.overhead(launch, weight * r.layers);
            return t + launch;
        }
        double heads = batch * r.headsLocal;
        double scores = r.gemm.seconds(heads, s, s, r.headDim, r.compute)
                + r.gemm.seconds(heads, s, r.headDim, s, r.compute);
        // Softmax (with scale and mask) reads and writes the full s x s scores once.
        double softmax = r.memoryOp.seconds(2 * heads * s * s * r.actBytes, 5 * heads * s * s, 1);
        double t = scores + softmax;
        acc.kernel(t - 3 * launch, 1, 0, weight * r.layers);
        // Unfused: both score GEMMs over the full s x s block (operands once, output once) and the softmax pass.
        double scoreBytes = heads * (2 * (s * r.headDim + r.headDim * s + s * s) + 2 * s * s) * r.actBytes;
        acc.traffic(2 * 2 * heads * s * s * r.headDim, scoreBytes, weight * r.layers);
        acc.overhead(3 * launch, weight * r.layers);
        return t;
    }
}
