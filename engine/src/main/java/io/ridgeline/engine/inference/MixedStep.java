package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Precision;

/**
 * One engine step of continuous batching (Orca, OSDI'22; Sarathi-Serve, OSDI'24): {@code d} sequences each decode one
 * token while {@code p} prompt tokens are prefilled in the same forward pass. The runtime packs all d + p tokens into
 * one input, so every GEMM runs once with M = d + p on the hierarchical roofline ({@code ops.GemmModel}): weights are
 * read once per step whatever the mix, which is why prompt tokens ride almost free on a memory-bound decode step and
 * cost their FLOPs once the step turns compute-bound. Attention is two kernels: decode attention streams each decoding
 * sequence's KV cache, context attention computes the prompt tokens' causal attention (FlashAttention rate). Then the
 * elementwise kernels over d + p tokens, two TP all-reduces of (d + p) x h, the LM head for the d decoding sequences
 * and the prompts that finish in this step, and the step's fixed costs: one launch (or graph node) per kernel and the
 * runtime's host work, overlapped with the GPU when the runtime has an overlap scheduler.
 */
final class MixedStep {
    private final Replica r;
    private final double gemmLaunchSeconds;

    MixedStep(Replica r) {
        this.r = r;
        this.gemmLaunchSeconds = r.chip.family().kernelLaunchSeconds();
    }

    /**
     * Seconds of one step.
     *
     * @param decodeSequences   sequences decoding one token each (replica-wide, split over the ep attention groups)
     * @param decodeContext     mean context those sequences attend over
     * @param prefillTokens     prompt tokens prefilled in this step
     * @param promptTokens      length of the prompts those tokens belong to (their causal attention spans it)
     * @param promptsFinishing  prompts whose last token is in this step (each needs its logits: the first output)
     * @param requests          requests the step schedules, replica-wide (each attention group's scheduler handles
     *                          its share); the runtime's host work per request scales with them
     * @param microBatches      pipeline micro-batches of this size in flight ({@link ContinuousBatching}): each
     *                          rank's executor loop runs one iteration per micro-batch, so the host work of the cycle
     *                          this step stands for is that many iterations; 1 without pipeline parallelism
     */
    double seconds(double decodeSequences, double decodeContext, double prefillTokens, double promptTokens,
                   double promptsFinishing, double requests, double microBatches, Breakdown acc, double weight) {
        double ep = r.ep;
        double d = ep == 1 ? decodeSequences : Math.ceil(decodeSequences / ep);
        // The busiest attention group sets the step (every MoE layer synchronizes the groups): whole prompts land on
        // groups one by one, so it carries ceil(prompts / ep) of them; chunked prompt tokens spread evenly.
        boolean whole = !r.plan.runtime().chunkedPrefill() && promptsFinishing > 0 && ep > 1;
        double p = whole ? Math.ceil(promptsFinishing / ep - 1e-9) * promptTokens : prefillTokens / ep;
        double m = Math.ceil(d + p);
        if (m <= 0) {
            return 0;
        }
        boolean graphs = r.plan.cudaGraphs() && (prefillTokens <= 0 || r.plan.runtime().cudaGraphsMixedSteps());
        double perKernel = graphs ? r.fixed.perKernelSeconds() : r.fixed.eagerKernelSeconds();
        double layerWeight = weight * r.layers;

        double perLayer = 0;
        for (int i = 0; i < r.gemmN.length; i++) {
            perLayer += gemm(1, m, r.gemmN[i], r.gemmK[i], r.compute, r.weightBytes, acc, layerWeight);
        }
        if (r.moe) {
            double stageTokens = decodeSequences + prefillTokens;
            double touched = r.localExpertsTouched(stageTokens);
            double perExpert = Math.ceil(r.localExpertTokens(stageTokens) / touched);
            perLayer += gemm(touched, perExpert, r.expertUpN, r.hidden, r.expertPrecision, r.expertWeightBytes, acc,
                    layerWeight);
            perLayer += gemm(touched, perExpert, r.hidden, r.expertDownK, r.expertPrecision, r.expertWeightBytes, acc,
                    layerWeight);
            perLayer += r.moeExchangeSeconds(m, acc, layerWeight);
        }
        perLayer += decodeAttention(d, decodeContext, acc, layerWeight);
        perLayer += contextAttention(p, promptTokens, acc, layerWeight);
        double elementwise = m * r.elementwiseBytesPerToken / r.dramBytesPerSecond;
        acc.kernel(elementwise, 0, elementwise, layerWeight);
        acc.traffic(0, m * r.elementwiseBytesPerToken, layerWeight);
        // FasterTransformer / TRT-LLM layer kernels; a step with prompts runs the context attention kernel as well.
        double kernels = layerKernels(p > 0) * perKernel;
        acc.overhead(kernels, layerWeight);
        perLayer += elementwise + kernels;
        perLayer += 2 * r.tpAllReduceSeconds(m * r.hidden * r.actBytes, acc, 2 * layerWeight);
        // Logits only for the last position of each sequence that emits a token in this step.
        double rows = Math.ceil(d + promptsFinishing / ep);
        double gpu = r.layers * perLayer;
        double headGemm = headGemm(rows, acc, weight);
        gpu += headGemm;
        double headAllReduce = r.tpAllReduceSeconds(rows * r.vocabLocal * 4, acc, weight);
        gpu += headAllReduce;
        double stepKernels = FixedCosts.DECODE_KERNELS_PER_STEP * perKernel;
        acc.overhead(stepKernels, weight);
        gpu += stepKernels;
        double hops = r.pipelineSeconds(m * r.hidden * r.actBytes, acc, weight);
        gpu += hops;
        // The runtime's host work per executor-loop iteration (one micro-batch).
        double hostPerIteration = r.fixed.hostSecondsPerStep(requests / ep, graphs ? 0 : eagerKernels(p > 0));
        if (microBatches > 1) {
            double head = headGemm + headAllReduce;
            // A full pipeline turns at the pace of its slowest stage, the last one (its layers, the LM head, the
            // sampling kernels, its hand-off): a cycle of m micro-batches lasts m of its slots (GPipe / 1F1B bubble
            // arithmetic, Huang et al. 2019, with the stages unequal). A micro-batch cannot run its next step before
            // its sampled tokens are back on the host and the step is scheduled: the last rank waits for its sampler
            // (sampler_event.synchronize), the tokens travel the ranks as host messages (recv_object / isend_object)
            // and the loop updates the requests and schedules the micro-batch again (TensorRT-LLM
            // PyExecutor._executor_loop_pp, stages 1-3), so a micro-batch's round trip is its pass plus one host
            // iteration, and the cycle is the longer of the two.
            double lastStage = r.layersPerStage * perLayer + head + stepKernels + hops / Math.max(1, r.plan.pp() - 1);
            double bubble = Math.max(0, Math.max(microBatches * lastStage, gpu + hostPerIteration) - gpu);
            acc.overhead(bubble, weight);
            gpu += bubble;
        }

        // The runtime's host work per step: hidden behind the GPU by an overlap scheduler, else in series.
        double host = microBatches * hostPerIteration;
        // With pipeline micro-batches the loop launches one micro-batch while the GPU runs another (TensorRT-LLM
        // PyExecutor._executor_loop_pp, asynchronous forward and send), which overlaps host and GPU as well.
        if (r.plan.runtime().overlapScheduler() || microBatches > 1) {
            double exposed = Math.max(0, host - gpu);
            acc.overhead(exposed, weight);
            return gpu + exposed;
        }
        acc.overhead(host, weight);
        return gpu + host;
    }

    /**
     * Kernels a step run eagerly dispatches one by one from one rank's host: the layer kernels the GPU side counts
     * (context attention when the step carries prompts, the MoE extras), the two TP all-reduces and the two expert
     * exchange collectives of each layer when they exist, over the layers of the rank's pipeline stage, and the
     * step's own (embedding, final norm, LM head, sampling).
     */
    private double eagerKernels(boolean prompts) {
        double perLayer = layerKernels(prompts) + (r.tp > 1 ? 2 : 0) + (r.moe && r.ep > 1 ? 2 : 0);
        return perLayer * r.layersPerStage + FixedCosts.DECODE_KERNELS_PER_STEP;
    }

    /** A layer's fixed-cost kernels: FasterTransformer / TRT-LLM's decode layer, context attention, the MoE extras. */
    private double layerKernels(boolean prompts) {
        return FixedCosts.DECODE_KERNELS_PER_LAYER + (prompts ? 1 : 0)
                + (r.moe ? FixedCosts.MOE_EXTRA_KERNELS_PER_LAYER : 0);
    }

    /** The LM head in its 16-bit format ({@link Replica#head}), on the roofline, without its launch. */
    private double headGemm(double m, Breakdown acc, double times) {
        double t = r.gemm.seconds(1, m, r.vocabLocal, r.hidden, r.head) - gemmLaunchSeconds;
        double flops = 2 * m * r.vocabLocal * r.hidden;
        double bytes = r.vocabLocal * r.hidden * r.headWeightBytes + m * (r.vocabLocal + r.hidden) * r.actBytes;
        acc.kernel(t, flops / r.headFlopsPerSecond, bytes / r.dramBytesPerSecond, times);
        acc.traffic(flops, bytes, times);
        return t;
    }

    /** A GEMM on the roofline without its launch (the step's fixed costs count launches once per kernel). */
    private double gemm(double count, double m, double n, double k, Precision p, double weightBytes, Breakdown acc,
                        double times) {
        double t = r.gemm.seconds(count, m, n, k, p) - gemmLaunchSeconds;
        double flops = 2 * count * m * n * k;
        double bytes = count * (n * k * weightBytes + m * (n + k) * r.actBytes);
        acc.kernel(t, flops / r.gemmFlopsPerSecond, bytes / r.dramBytesPerSecond, times);
        acc.traffic(flops, bytes, times);
        return t;
    }

    /** Decode attention: each sequence reads its K and V over the context (memory-bound until very long contexts). */
    private double decodeAttention(double d, double context, Breakdown acc, double weight) {
        if (d <= 0) {
            return 0;
        }
        double bytes = d * (2 * context * r.kvWidthLocal * r.kvBytes * r.decodeKvReads
                + 2 * r.headsLocal * r.headDim * r.actBytes);
        double memory = bytes / r.dramBytesPerSecond;
        double flops = 4 * d * context * r.headsLocal * r.headDim;
        double compute = flops / r.attentionFlopsPerSecond;
        double t = Math.max(memory, compute);
        acc.kernel(t, compute, memory, weight);
        acc.traffic(flops, bytes, weight);
        return t;
    }

    /**
     * Context (prefill) attention of {@code p} tokens of prompts {@code s} long: causal, so a token attends on average
     * over s / 2 positions, 4 x (s / 2) x heads x head_dim flops per token (FlashAttention, Dao 2023), at the family's
     * fused-attention rate; a chunk of a prompt attends over the earlier chunks' cached K and V just the same.
     */
    private double contextAttention(double p, double s, Breakdown acc, double weight) {
        if (p <= 0) {
            return 0;
        }
        double flops = p * 2 * s * r.headsLocal * r.headDim;
        double bytes = p * (2 * r.headsLocal * r.headDim * r.actBytes + 2 * r.kvWidthLocal * r.kvBytes);
        double compute = flops / r.attentionFlopsPerSecond;
        double memory = bytes / r.dramBytesPerSecond;
        double t = Math.max(compute, memory);
        acc.kernel(t, compute, memory, weight);
        acc.traffic(flops, bytes, weight);
        return t;
    }
}
