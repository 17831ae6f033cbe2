package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Precision;

import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Bytes resident on the most loaded GPU of a replica (MODEL.md sec. 6, inference): weights, KV cache, activations and a
 * reserve. Pipeline stages hold at most {@code ceil(layers / pp)} layers (stages may be uneven); the first also holds the input embedding and the last the
 * LM head (both vocab-parallel over TP); the most loaded stage is taken. With expert parallelism each GPU holds
 * experts / ep routed experts (each split over TP) next to its attention group's full TP share of attention, shared
 * experts and router, and the KV cache of its group's share of the batch.
 */
public final class InferenceMemory {
    /** Logits are produced in fp32 (bytes per element). */
    private static final double LOGIT_BYTES = 4;

    private final double weightBytes;
    private final double kvBytesPerTokenAllLayers;
    private final double activationBytesPerToken;
    private final double logitBytesPerSequence;
    private final double reserveBytes;
    private final double capacityBytes;
    private final int ep;

    public InferenceMemory(ModelSpec model, InferencePlan plan, double capacityBytes) {
        this(model, plan, capacityBytes, false);
    }

    /** With the experts stored in MXFP4 when the runtime serves them W4A16 ({@link ShippedCheckpoint}). */
    InferenceMemory(ModelSpec model, InferencePlan plan, double capacityBytes, boolean mxfp4Experts) {
        int tp = plan.tp();
        int layersPerStage = (model.layers() + plan.pp() - 1) / plan.pp(); // uneven stages: the most loaded
        double w = plan.weightPrecision().bytes();
        this.ep = plan.ep();
        // Experts in their own format: 16-bit when the runtime's MoE kernels take no quantized experts.
        Precision expert = Replica.moeExpertPrecision(plan);
        double expertBytes = mxfp4Experts ? ShippedCheckpoint.MXFP4_BYTES_PER_WEIGHT
                : expert == plan.computePrecision() ? w : expert.bytes();
        double experts = model.isMoe() ? localExpertParams(model, tp, ep) : 0;
        double perLayer = localAttentionParams(model, tp) + localMlpParams(model, tp, ep) - experts
                + model.normParamsPerLayer() + experts * expertBytes / w;
        double embedding = (double) model.vocab() * model.hidden() / tp;
        // pp = 1: one stage holds both ends (one matrix when tied); pp > 1: the heavier end stage holds one matrix.
        double ends = plan.pp() == 1 ? (model.tiedEmbeddings() ? 1 : 2) * embedding : embedding;
        // The embedding table and the LM head stay 16-bit in fp8/fp4 checkpoints (ModelOpt quantizes the linear layers
        // and excludes lm_head; the embedding is a lookup), as the LM head's time already assumes (Replica.head).
        double endBytes = Math.max(w, 2);
        this.weightBytes = (layersPerStage * perLayer + model.hidden()) * w + ends * endBytes;
        this.kvBytesPerTokenAllLayers = KvCache.bytesPerTokenPerLayer(model, tp, plan.kvCachePrecision().bytes())
                * layersPerStage;
        // Peak live activations of a prefill layer per token: the residual stream and its normalized copy, the local
        // QKV output and the local MLP intermediate (gate and up of a gated MLP, up alone of a GeLU MLP: the matrices
        // other than down) in the activation format.
        double a = plan.activationPrecision().bytes();
        double ffn = model.isMoe() ? model.moe().expertFfn() * model.moe().topK() : model.ffn();
        double qkv = (double) model.heads() * model.headDim() / tp
                + 2.0 * KvCache.kvHeadsPerRank(model, tp) * model.headDim();
        double intermediate = (model.mlp().matrices() - 1) * ffn / tp;
        this.activationBytesPerToken = a * (2.0 * model.hidden() + qkv + intermediate);
        this.logitBytesPerSequence = LOGIT_BYTES * model.vocab() / tp;
        this.reserveBytes = staticReserveBytes(plan.runtime(), capacityBytes);
        this.capacityBytes = capacityBytes;
    }

    /**
     * Memory a static batch cannot use besides weights, KV cache and activations: the runtime's own reserve (CUDA
     * context, cuBLAS/NCCL workspaces), plus the share of the device the runtime leaves alone when its memory budget
     * is a fraction of the whole device (vLLM gpu_memory_utilization: weights, activations and KV all live inside
     * it). A runtime that budgets a fraction of what is free after loading (TensorRT-LLM's
     * kv_cache_free_gpu_mem_fraction) applies it only to its paged pool; a static session (gptSessionBenchmark)
     * allocates the batch's contiguous cache exactly.
     */
    static double staticReserveBytes(ServingBehaviour runtime, double capacityBytes) {
        double untouched = runtime.kvMemoryBasis() == ServingBehaviour.KvMemoryBasis.TOTAL
                ? (1 - runtime.kvMemoryFraction()) * capacityBytes : 0;
        return runtime.runtimeReserveBytes() + untouched;
    }

    /**
     * MLP weights per layer on one GPU: dense MLP / tp; MoE: routed experts / (tp x ep), shared experts / tp and the
     * router replicated on every rank (as TensorRT-LLM and vLLM keep the gate unsplit).
     */
    static double localMlpParams(ModelSpec model, int tp, int ep) {
        if (!model.isMoe()) {
            return model.mlpParamsPerLayer() / tp;
        }
        double expert = (double) model.mlp().matrices() * model.hidden() * model.moe().expertFfn();
        return expert * model.moe().experts() / ((double) tp * ep) + expert * model.moe().sharedExperts() / tp
                + (double) model.hidden() * model.moe().experts();
    }

    /** Routed experts / (tp x ep) and shared experts / tp of one MoE layer on one GPU (the router excluded). */
    static double localExpertParams(ModelSpec model, int tp, int ep) {
        double expert = (double) model.mlp().matrices() * model.hidden() * model.moe().expertFfn();
        return expert * model.moe().experts() / ((double) tp * ep) + expert * model.moe().sharedExperts() / tp;
    }

    /**
     * Attention weights on one TP rank: Q and O split, K and V split or replicated (see {@link KvCache}). Q and O are
     * hidden x (heads x head_dim), through the model's head accessors (not hidden x hidden when a configuration sets
     * its own head width).
     */
    static double localAttentionParams(ModelSpec model, int tp) {
        double h = model.hidden();
        double q = (double) model.heads() * model.headDim();
        double kvLocal = (double) KvCache.kvHeadsPerRank(model, tp) * model.headDim();
        return 2.0 * h * q / tp + 2.0 * h * kvLocal;
    }

    public double weightBytes() {
        return weightBytes;
    }

    /** KV-cache bytes of one token (all layers of the stage) on one GPU. */
    public double kvBytesPerToken() {
        return kvBytesPerTokenAllLayers;
    }

    /**
     * The paged KV pool on one GPU under continuous batching: the runtime's share of memory (of what is free after
     * weights, its reserve and the activation workspace for {@code workspaceTokens} tokens per step — TensorRT-LLM
     * kv_cache_free_gpu_mem_fraction — or of the whole device, which then also holds those — vLLM
     * gpu_memory_utilization, SGLang mem_fraction_static). 0 when nothing is left.
     */
    public double kvPoolBytes(ServingBehaviour runtime, double workspaceTokens) {
        double other = weightBytes + runtime.runtimeReserveBytes() + activationBytesPerToken * workspaceTokens;
        double pool = runtime.kvMemoryBasis() == ServingBehaviour.KvMemoryBasis.FREE_AFTER_LOAD
                ? runtime.kvMemoryFraction() * (capacityBytes - other)
                : runtime.kvMemoryFraction() * capacityBytes - other;
        return Math.max(0, pool);
    }

    /** Everything resident on one GPU while serving: weights, the KV pool, workspace and reserve (continuous batching). */
    public double servingBytes(ServingBehaviour runtime, double workspaceTokens) {
        return weightBytes + runtime.runtimeReserveBytes() + activationBytesPerToken * workspaceTokens
                + kvPoolBytes(runtime, workspaceTokens);
    }

    /** Sequences of a replica's batch that one attention group (and so one GPU) holds: ceil(batch / ep). */
    private double perGroup(double batch) {
        return ep == 1 ? batch : Math.ceil(batch / ep);
    }

    /** KV cache on one GPU for a batch of {@code batch} sequences at {@code contextTokens}. */
    public double kvCacheBytes(double batch, double contextTokens) {
        return kvBytesPerTokenAllLayers * perGroup(batch) * contextTokens;
    }

    /** Peak activations of a prefill of {@code batch} x {@code inputTokens} (one layer live at a time) plus logits. */
    public double activationBytes(double batch, double inputTokens) {
        double b = perGroup(batch);
        return activationBytesPerToken * b * inputTokens + logitBytesPerSequence * b;
    }

    public double reserveBytes() {
        return reserveBytes;
    }

    public double capacityBytes() {
        return capacityBytes;
    }

    /** Everything a batch needs. */
    public double totalBytes(double batch, double inputTokens, double contextTokens) {
        return weightBytes + kvCacheBytes(batch, contextTokens) + activationBytes(batch, inputTokens) + reserveBytes;
    }

    /**
     * The largest batch of the replica whose KV cache (at full context) and activations fit next to the weights; 0 if
     * none. Each of the ep attention groups holds its own sequences.
     */
    public int maxBatch(double inputTokens, double contextTokens) {
        double free = capacityBytes - reserveBytes - weightBytes;
        double perSequence = kvBytesPerTokenAllLayers * contextTokens + activationBytesPerToken * inputTokens
                + logitBytesPerSequence;
        if (free <= 0) {
            return 0;
        }
        double b = Math.floor(free / perSequence) * ep;
        return b >= Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) b;
    }
}
