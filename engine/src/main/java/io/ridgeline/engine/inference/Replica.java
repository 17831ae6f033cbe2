package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.hardware.CollectiveCurve;
import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.network.Placement;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.ops.MemoryBoundOp;
import io.ridgeline.engine.ops.Roofline;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Everything about one (model, system, plan) that does not depend on batch or context: the local (per TP rank) GEMM
 * shapes, the chip's sustained rates and the operator models. Built once, then reused for every workload.
 *
 * <p>Expert parallelism ({@link InferencePlan#ep()} = e): a stage is e attention groups of tp GPUs; a batch of b
 * sequences is split over the groups ({@link #sequencesPerGroup}); each GPU holds E/e experts, each split tp ways, and
 * every MoE layer dispatches each token's hidden state to its top-k experts' group and combines the results back over
 * the e ranks with the same TP index: two all-to-alls where they share NVLink, else an all-gather and a
 * reduce-scatter ({@link #moeExchangeSeconds}).
 */
final class Replica {
    /** Tensor-core MMA tiles cover 16 rows: a decode GEMM with M = batch < 16 still computes 16 (mma.m16n8k16). */
    static final int MMA_ROWS = 16;

    final ModelSpec model;
    final SystemSpec system;
    final InferencePlan plan;
    final Chip chip;
    final GemmModel gemm;
    final MemoryBoundOp memoryOp;
    final CollectiveModel collective;
    final FixedCosts fixed;
    final Group tpGroup;
    /** The ranks holding the other experts: ep ranks tp apart (TP innermost, Placement). */
    final Group epGroup;
    final boolean ppCrossesDomains;

    final Precision compute;
    final double weightBytes;
    final double actBytes;
    final double kvBytes;
    final double dramBytesPerSecond;
    final double gemmFlopsPerSecond;
    /**
     * The LM head's format: quantized checkpoints leave it in 16 bits (ModelOpt excludes lm_head from fp8/NVFP4
     * quantization; Transformer Engine recipes keep the output layer in bf16), so it runs at the 16-bit rate.
     */
    final Precision head;
    final double headFlopsPerSecond;
    final double headWeightBytes;
    final double attentionFlopsPerSecond;
    final double overlapExponent;
    final double scaleUpBytesPerSecond;
    final double scaleUpEfficiency;
    /** In-domain rate of the MoE exchange: the curve's plateau, capped like CollectiveModel's ring collectives. */
    private final double exchangeBytesPerSecond;
    final CollectiveCurve curve;
    /** Largest TP all-reduce (bytes) the runtime runs with its own kernel; NCCL above it. */
    private final double maxKernelBytes;

    final int tp;
    final int ep;
    final int layersPerStage;
    final int layers;
    final double hidden;
    final double headDim;
    final double headsLocal;
    final double kvWidthLocal;
    /**
     * Times a decode step reads each cached KV head: 1 for a kernel that shares it across the query-head group, the
     * group size for one that streams it per query head (the runtime's {@code decode_attention}).
     */
    final double decodeKvReads;
    /** MoE expert GEMMs: their format (16-bit when the runtime cannot run quantized experts), bytes and rate. */
    final Precision expertPrecision;
    /** The experts are an MXFP4 checkpoint served as shipped, W4A16 ({@link ShippedCheckpoint}). */
    final boolean w4a16Experts;
    final double expertWeightBytes;
    final double expertFlopsPerSecond;
    /** Dense GEMMs of one layer on one rank, as (n, k) pairs with M = tokens: QKV, O, MLP up(+gate), MLP down. */
    final double[] gemmN;
    final double[] gemmK;
    /** MoE: routed experts, routed experts per token, experts held per GPU, expert GEMM widths on one rank. */
    final boolean moe;
    final double experts;
    final double topK;
    /**
     * The MoE exchange runs as an all-gather of each group's tokens and a reduce-scatter of the expert outputs instead
     * of two all-to-alls ({@link #moeExchangeSeconds}); with the bytes of one token's all-gather row.
     */
    final boolean gatherScatterExchange;
    final double dispatchBytesPerToken;
    final double localExperts;
    /** Busiest EP rank's tokens relative to the mean: the model's capacity factor when ep > 1, else 1. */
    final double loadImbalance;
    final double expertUpN;
    final double expertDownK;
    final double expertParamsLocal;
    final double vocabLocal;
    /** Elementwise bytes per token per layer (norms, residuals, activation function, rotary, KV-cache write). */
    final double elementwiseBytesPerToken;

    Replica(ModelSpec model, SystemSpec system, InferencePlan plan, HardwareCatalog catalog) {
        this(model, system, plan, catalog, new GemmModel(system.chip()));
    }

    /** With a GEMM model (and its shape cache) shared across the plans of one chip; {@code gemm} must be for it. */
    Replica(ModelSpec model, SystemSpec system, InferencePlan plan, HardwareCatalog catalog, GemmModel gemm) {
        if (gemm.chip() != system.chip()) {
            throw new IllegalStateException("GEMM model of " + gemm.chip().id() + " used for " + system.chip().id());
        }
        this.model = model;
        this.system = system;
        this.plan = plan;
        this.chip = system.chip();
        this.gemm = gemm;
        this.memoryOp = new MemoryBoundOp(chip);
        CollectiveCurve curve = catalog.curve(chip);
        this.collective = new CollectiveModel(system, curve);
        this.fixed = new FixedCosts(system, plan.cudaGraphs(), plan.runtime());
        this.tp = plan.tp();
        this.ep = plan.ep();
        this.tpGroup = Placement.group(tp, 1, system.scaleUpDomain());
        this.epGroup = Placement.group(ep, tp, system.scaleUpDomain());
        this.ppCrossesDomains = Placement.pipelineCrossesDomains(tp * ep, system.scaleUpDomain());

        this.compute = plan.computePrecision();
        this.weightBytes = plan.weightPrecision().bytes();
        // Activations live in 16 bits between kernels even when GEMMs run in fp8/fp4: the recipes quantize each GEMM's
        // input on the fly and write bf16 outputs (Transformer Engine / ModelOpt fp8 and NVFP4 recipes).
        this.actBytes = Math.max(2, plan.activationPrecision().bytes());
        this.kvBytes = plan.kvCachePrecision().bytes();
        this.dramBytesPerSecond = chip.effectiveMemoryBytesPerSecond();
        this.gemmFlopsPerSecond = chip.peakFlopsPerSecond(compute) * chip.family().gemmPeakFraction(compute);
        this.head = compute.bytes() < 2 ? Precision.BF16 : compute;
        this.headFlopsPerSecond = chip.peakFlopsPerSecond(head) * chip.family().gemmPeakFraction();
        this.headWeightBytes = Math.max(weightBytes, head.bytes());
        this.attentionFlopsPerSecond = chip.peakFlopsPerSecond(contextAttentionPrecision(plan))
                * chip.family().flashFraction();
        this.overlapExponent = chip.family().overlapExponent();
        this.scaleUpBytesPerSecond = system.scaleUpBytesPerSecond();
        this.scaleUpEfficiency = Math.min(curve.plateauEfficiency(), 1.0);
        this.exchangeBytesPerSecond = Math.min(scaleUpEfficiency, FixedCosts.ALL_TO_ALL_EFFICIENCY_CAP)
                * scaleUpBytesPerSecond;
        this.curve = curve;
        this.maxKernelBytes = plan.runtime().allReduceSelection().maxKernelBytes(plan.tp(), chip.nvlinkScaleUp());

        this.layers = model.layers();
        this.layersPerStage = (model.layers() + plan.pp() - 1) / plan.pp(); // uneven stages: the most loaded
        this.hidden = model.hidden();
        this.headDim = model.headDim();
        this.headsLocal = (double) model.heads() / tp;
        int kvHeadsLocal = KvCache.kvHeadsPerRank(model, tp);
        this.kvWidthLocal = (double) kvHeadsLocal * model.headDim();
        // Query width through the model's head accessors: heads x head_dim, which is not hidden when a configuration
        // sets its own head width (Qwen3, GPT-OSS).
        double qWidthLocal = headsLocal * headDim;
        this.decodeKvReads = plan.runtime().decodeAttention().kvReadsPerKvHead(model.headDim(),
                headsLocal / kvHeadsLocal);
        this.expertPrecision = moeExpertPrecision(plan);
        // A checkpoint served as shipped keeps its MXFP4 experts in memory and multiplies them at the bf16 rate.
        this.w4a16Experts = ShippedCheckpoint.w4a16Experts(model, chip, plan);
        this.expertWeightBytes = w4a16Experts
                ? ShippedCheckpoint.MXFP4_BYTES_PER_WEIGHT
                : expertPrecision == compute ? weightBytes : expertPrecision.bytes();
        this.expertFlopsPerSecond = chip.peakFlopsPerSecond(expertPrecision)
                * chip.family().gemmPeakFraction(expertPrecision);
        this.moe = model.isMoe();
        double upMatrices = model.mlp().matrices() - 1;
        if (moe) {
            double ffnLocal = (double) model.moe().expertFfn() / tp;
            int shared = model.moe().sharedExperts();
            if (shared == 0) {
                // QKV, O, router (replicated, N = experts).
                this.gemmN = new double[]{qWidthLocal + 2 * kvWidthLocal, hidden, model.moe().experts()};
                this.gemmK = new double[]{hidden, qWidthLocal, hidden};
            } else {
                // Shared experts run on every token like a dense MLP of width shared x expert ffn, split over TP.
                this.gemmN = new double[]{qWidthLocal + 2 * kvWidthLocal, hidden, model.moe().experts(),
                        upMatrices * shared * ffnLocal, hidden};
                this.gemmK = new double[]{hidden, qWidthLocal, hidden, hidden, shared * ffnLocal};
            }
            this.experts = model.moe().experts();
            this.topK = model.moe().topK();
            this.gatherScatterExchange = ep > 1 && !chip.nvlinkScaleUp();
            this.dispatchBytesPerToken = dispatchBytesPerToken(hidden, topK, expertPrecision);
            this.localExperts = experts / ep;
            this.loadImbalance = ep > 1 ? model.moe().capacityFactor() : 1;
            this.expertUpN = upMatrices * ffnLocal;
            this.expertDownK = ffnLocal;
            this.expertParamsLocal = model.mlp().matrices() * hidden * ffnLocal;
        } else {
            double ffnLocal = (double) model.ffn() / tp;
            this.gemmN = new double[]{qWidthLocal + 2 * kvWidthLocal, hidden, upMatrices * ffnLocal, hidden};
            this.gemmK = new double[]{hidden, qWidthLocal, hidden, ffnLocal};
            this.experts = 0;
            this.topK = 0;
            this.gatherScatterExchange = false;
            this.dispatchBytesPerToken = 0;
            this.localExperts = 0;
            this.loadImbalance = 1;
            this.expertUpN = 0;
            this.expertDownK = 0;
            this.expertParamsLocal = 0;
        }
        this.vocabLocal = (double) model.vocab() / tp;
        double ffnTouched = moe ? (double) model.moe().expertFfn() * model.moe().activeExpertsPerToken() / tp
                : (double) model.ffn() / tp;
        // RMSNorm read+write x2, residual add read 2 + write 1 x2, SwiGLU/GeLU read 2-3 + write 1 of the local
        // intermediate, rotary read+write of local Q and K, K and V written to the cache.
        // MoE: the permute kernel reads each token's hidden state and writes its top-k copies in expert order; the
        // finalize kernel reads the k expert outputs back and writes their weighted sum (vLLM fused_moe moe_align /
        // moe_sum, TensorRT-LLM expandInputRows / finalizeMoeRouting).
        double routing = moe ? (1 + topK) * hidden + (topK + 1) * hidden : 0;
        this.elementwiseBytesPerToken = actBytes * (2 * 2 * hidden + 2 * 3 * hidden + (upMatrices + 1) * ffnTouched
                + 2 * (qWidthLocal + kvWidthLocal) + routing) + 2 * kvWidthLocal * kvBytes;
    }

    /**
     * The format of context (prefill) attention: the GEMM format when it is 16-bit; fp8 for an fp8/fp4 model only when
     * the runtime runs fp8 FMHA and the KV cache is fp8 (an fp4 model with an fp8 cache runs fp8 FMHA); else 16-bit,
     * the attention operator computing in fp16/bf16 around quantized GEMMs.
     */
    static Precision contextAttentionPrecision(InferencePlan plan) {
        Precision compute = plan.computePrecision();
        if (compute.bytes() >= 2) {
            return compute;
        }
        boolean fp8 = plan.runtime().fp8ContextAttention() && plan.kvCachePrecision() == Precision.FP8;
        return fp8 ? Precision.FP8 : Precision.BF16;
    }

    /** The expert GEMMs' format: the model's, or 16-bit when the runtime's MoE kernels take no quantized experts. */
    static Precision moeExpertPrecision(InferencePlan plan) {
        Precision compute = plan.computePrecision();
        return compute.bytes() < 2 && !plan.runtime().quantizedMoe() ? Precision.BF16 : compute;
    }

    /**
     * A decode-class GEMM (small M) on one rank: weights read once at the sustained HBM rate, inputs and outputs in
     * the activation format; compute on M rounded up to the MMA tile height; soft roofline as every operator.
     */
    double smallGemmSeconds(double m, double n, double k, double matrices, Breakdown acc, double weight) {
        return smallGemmSeconds(m, n, k, matrices, weightBytes, gemmFlopsPerSecond, acc, weight);
    }

    /** {@link #smallGemmSeconds} for the MoE experts, in their own format ({@link #expertPrecision}). */
    double expertGemmSeconds(double m, double n, double k, double matrices, Breakdown acc, double weight) {
        return smallGemmSeconds(m, n, k, matrices, expertWeightBytes, expertFlopsPerSecond, acc, weight);
    }

    private double smallGemmSeconds(double m, double n, double k, double matrices, double wBytes,
                                    double flopsPerSecond, Breakdown acc, double weight) {
        double bytes = matrices * n * k * wBytes + matrices * m * (k + n) * actBytes;
        double memory = bytes / dramBytesPerSecond;
        double rows = Math.ceil(m / MMA_ROWS) * MMA_ROWS;
        double flops = 2 * rows * n * k * matrices / flopsPerSecond;
        double t = Roofline.combine(flops, memory, overlapExponent);
        acc.kernel(t, flops, memory, weight);
        acc.traffic(2 * rows * n * k * matrices, bytes, weight);
        return t;
    }

    /** The LM head over the local vocabulary for {@code m} rows (decode class: weights read once), in 16 bits. */
    double headSeconds(double m, Breakdown acc, double weight) {
        double n = vocabLocal;
        double k = hidden;
        double bytes = n * k * headWeightBytes + m * (k + n) * actBytes;
        double memory = bytes / dramBytesPerSecond;
        double rows = Math.ceil(m / MMA_ROWS) * MMA_ROWS;
        double flops = 2 * rows * n * k / headFlopsPerSecond;
        double t = Roofline.combine(flops, memory, overlapExponent);
        acc.kernel(t, flops, memory, weight);
        acc.traffic(2 * rows * n * k, bytes, weight);
        return t;
    }

    /**
     * Expected distinct experts that {@code tokens} tokens touch, each routed to top-k distinct experts of E uniformly
     * (expected coverage: an expert is missed by one token with probability 1 - k/E, by all T tokens with
     * (1 - k/E)^T, so E(T) = E (1 - (1 - k/E)^T)): k at T = 1, E as T grows.
     */
    static double expectedExpertsTouched(double experts, double topK, double tokens) {
        return experts * (1 - Math.pow(1 - topK / experts, tokens));
    }

    /** Expected distinct experts (of the whole model) that {@code tokens} tokens of the stage touch. */
    double expertsTouched(double tokens) {
        return expectedExpertsTouched(experts, topK, tokens);
    }

    /**
     * Experts whose weights the busiest EP rank reads for {@code tokens} tokens of the whole stage: its even share of
     * the touched experts, at least one whole expert as soon as any is touched (at batch 1 with ep = E the ranks of
     * the k chosen experts each read one), at most the E/ep it holds.
     */
    double localExpertsTouched(double tokens) {
        double share = expertsTouched(tokens) / ep;
        return Math.min(localExperts, Math.max(share, 1));
    }

    /**
     * Distinct hidden states the router sees among {@code tokens} tokens: all of them, or one when the benchmark's
     * prompts repeat a single token. Then every position of every sequence carries the same hidden state (the values
     * are equal, so causal attention returns that value at every position; rotary embedding turns only Q and K), the
     * sequences decode the same tokens, and each pass routes to the same top-k experts.
     */
    double distinctRoutedTokens(double tokens) {
        return plan.runtime().identicalPrompts() ? Math.min(tokens, 1) : tokens;
    }

    /** Routed token copies (token x top-k) the busiest EP rank computes for {@code tokens} tokens of the stage. */
    double localExpertTokens(double tokens) {
        return tokens * topK * loadImbalance / ep;
    }

    /** Sequences of a batch each attention group serves (the batch is split over the ep groups, rounded up). */
    double sequencesPerGroup(double batch) {
        return ep == 1 ? batch : Math.ceil(batch / ep);
    }

    /**
     * The MoE exchange of one layer, dispatch and combine, for {@code tokens} tokens of the busiest attention group.
     * <p>All-to-all (DeepEP, TensorRT-LLM's NVLink one- and two-sided kernels, Megatron's dispatcher): each token's
     * top-k copies of the hidden state go to their experts' ranks and come back. Those kernels move data over NVLink
     * (peer-to-peer loads and stores, NVSHMEM); without NVLink in the domain the runtimes fall back to an all-gather
     * of every group's tokens, quantized as the experts take them, with their expert ids and routing weights, and a
     * reduce-scatter of the 16-bit expert outputs, each rank having summed its own experts' share of every token
     * (TensorRT-LLM CommunicationFactory: "AllGather + ReduceScatter (fallback, always works)"; CutlassFusedMoE
     * forward_chunk: post-quant allgather, fused_moe, reducescatter; vLLM's allgather_reducescatter all2all backend).
     */
    double moeExchangeSeconds(double tokens, Breakdown acc, double weight) {
        if (!gatherScatterExchange) {
            return 2 * epAllToAllSeconds(tokens * topK * hidden * actBytes, acc, 2 * weight);
        }
        return epRingSeconds(tokens * dispatchBytesPerToken, acc, weight)
                + epRingSeconds(tokens * hidden * actBytes, acc, weight);
    }

    /**
     * An all-gather row: the hidden state in the experts' input format (NVFP4 adds one fp8 scale per 16 values), the
     * token's top-k expert ids (int32) and routing weights (fp32) (CutlassFusedMoE.forward_chunk gathers x, x_sf,
     * token_selected_experts, token_final_scales).
     */
    static double dispatchBytesPerToken(double hidden, double topK, Precision expertPrecision) {
        double perValue = expertPrecision == Precision.FP4 ? Precision.FP4.bytes() + NVFP4_SCALE_BYTES_PER_VALUE
                : expertPrecision.bytes();
        return hidden * perValue + topK * (4 + 4);
    }

    /** NVFP4 block scaling: one fp8 (E4M3) scale per 16 values (NVIDIA, "Introducing NVFP4", 2025). */
    static final double NVFP4_SCALE_BYTES_PER_VALUE = 1.0 / 16;

    /**
     * A ring all-gather or reduce-scatter over the EP group in which each rank contributes or keeps {@code rankBytes}:
     * every rank sends (p - 1) x rankBytes; inside a domain with the all-to-all's latency and bandwidth treatment
     * ({@link #epAllToAllSeconds}), across domains {@link CollectiveModel#allGather} of the p x rankBytes buffer.
     */
    private double epRingSeconds(double rankBytes, Breakdown acc, double weight) {
        boolean out = epGroup.crossesDomains();
        double sent = (ep - 1.0) * rankBytes;
        double t = out ? fixed.allToAllBaseSeconds() + collective.allGather(ep * rankBytes, epGroup)
                : fixed.allToAllLatencySeconds(ep) + sent / exchangeBytesPerSecond;
        return acc.transfer(t, sent, out, weight);
    }

    /**
     * One MoE all-to-all (dispatch or combine) in which each rank sends {@code bytes} over the EP group. Inside a
     * scale-up domain it takes the same small-message treatment as the TP all-reduce ({@link FixedCosts}): launch +
     * 0.6 x CollectiveModel's (p-1)/2 all-to-all latency steps, plus (p-1)/p bytes at the curve's plateau efficiency
     * (capped like CollectiveModel's ring collectives). Across domains: launch + {@link CollectiveModel#allToAll}.
     */
    double epAllToAllSeconds(double bytes, Breakdown acc, double weight) {
        if (ep == 1) {
            return 0;
        }
        boolean out = epGroup.crossesDomains();
        double sent = (ep - 1.0) / ep * bytes;
        double t = out ? fixed.allToAllBaseSeconds() + collective.allToAll(bytes, epGroup)
                : fixed.allToAllLatencySeconds(ep) + sent / exchangeBytesPerSecond;
        return acc.transfer(t, sent, out, weight);
    }

    /** A tensor-parallel all-reduce of {@code bytes} per rank: inference latency + bandwidth term (alpha-beta). */
    double tpAllReduceSeconds(double bytes, Breakdown acc, double weight) {
        if (tp == 1) {
            return 0;
        }
        boolean out = tpGroup.crossesDomains();
        double ringBytes = 2.0 * (tp - 1) / tp * bytes; // all of it charged to the slower network
        double t = out ? collective.allReduce(bytes, tpGroup) : inDomainAllReduceSeconds(bytes, ringBytes);
        return acc.transfer(t, ringBytes, out, weight);
    }

    /**
     * The latency of the kernel the runtime picks for this size ({@link #allReduceLatencySeconds}), plus the transfer:
     * at the plateau rate, or for medium messages what NCCL's measured curve takes beyond its latency floor
     * (nccl-tests busbw at that size, microbench G0019-G0085, G0156-G0179: 33 MB reaches ~62% of the H100 plateau),
     * whichever is longer.
     */
    private double inDomainAllReduceSeconds(double bytes, double ringBytes) {
        double plateau = ringBytes / (scaleUpEfficiency * scaleUpBytesPerSecond);
        // The curve's time beyond the floor of the ranks it was measured on, scaled by this group's ring volume.
        int p = curve.referenceRanks();
        double refRingBytes = 2.0 * (p - 1) / p * bytes;
        double beyondFloor = refRingBytes / (curve.efficiency(bytes) * scaleUpBytesPerSecond)
                - CollectiveCurve.latencySteps(p) * fixed.ncclStepSeconds();
        double measured = beyondFloor * ringBytes / refRingBytes;
        return allReduceLatencySeconds(bytes) + Math.max(plateau, measured);
    }

    /**
     * Latency of one in-domain TP all-reduce of {@code bytes}: the runtime's own kernel up to its size limit
     * ({@link FixedCosts#allReduceLatencySeconds}); above it NCCL with its whole measured floor
     * ({@link FixedCosts#ncclAllReduceLatencySeconds}; ServingBehaviour allreduce_selection).
     */
    double allReduceLatencySeconds(double bytes) {
        return bytes <= maxKernelBytes ? fixed.allReduceLatencySeconds(tp) : fixed.ncclAllReduceLatencySeconds(tp);
    }

    /** Activation hand-off between pipeline stages (pp - 1 hops per pass). */
    double pipelineSeconds(double bytes, Breakdown acc, double weight) {
        if (plan.pp() == 1) {
            return 0;
        }
        double t = (plan.pp() - 1) * collective.sendRecv(bytes, ppCrossesDomains);
        return acc.transfer(t, (plan.pp() - 1) * bytes, ppCrossesDomains, weight);
    }
}
