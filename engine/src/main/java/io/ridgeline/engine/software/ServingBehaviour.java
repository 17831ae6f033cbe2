package io.ridgeline.engine.software;

import java.util.List;
import java.util.Locale;

/**
 * What a serving runtime does that changes request latency and throughput (docs/INFERENCE.md, "Runtimes"). Read from
 * the {@code serving} section of a {@code catalog/stacks.yaml} entry; {@link #ENGINE_DEFAULT} is what the engine
 * assumes when no runtime is named. Every field is a mechanism of the runtime (a limit, a policy, a cost the runtime
 * pays per step or per request), never a correction for a source.
 *
 * @param continuousBatching     requests join and leave the running batch every step (in-flight batching); false
 *                               for a runtime (or benchmark) that runs static batches, so a case's batch is a static
 *                               batch rather than a number of concurrent clients
 * @param attention              the prefill attention kernel
 * @param cudaGraphs             pure decode steps replayed as CUDA graphs
 * @param cudaGraphsMixedSteps   steps that also carry prefill tokens replayed as (piecewise) graphs too; false when
 *                               the runtime captures only generation-only batches and runs mixed steps eagerly
 * @param hostSecondsPerStep     host (CPU) work per engine step outside the kernels: scheduling, input preparation,
 *                               sampling bookkeeping
 * @param overlapScheduler       the host prepares step n+1 while the GPU runs step n, so a step costs
 *                               max(GPU, host) instead of GPU + host
 * @param requestSeconds         front-end cost per request inside the measured latency (tokenization, HTTP, request
 *                               setup); 0 for benchmarks that time the engine alone
 * @param kvMemoryFraction       share of memory given to the paged KV cache (of {@code kvMemoryBasis})
 * @param kvMemoryBasis          what the fraction is of: the memory free after weights and runtime buffers
 *                               (TensorRT-LLM kv_cache_free_gpu_mem_fraction) or the whole device (vLLM
 *                               gpu_memory_utilization, SGLang mem_fraction_static, which also cover the weights)
 * @param kvAdmission            whether a request is admitted only when KV blocks for its whole input + output are
 *                               free (TensorRT-LLM GUARANTEED_NO_EVICT) or with blocks for its current length,
 *                               growing on demand (vLLM, SGLang, MAX_UTILIZATION)
 * @param kvBlockTokens          tokens per paged KV block (allocation granularity)
 * @param maxBatch               most sequences the scheduler runs at once (max_batch_size / max_num_seqs)
 * @param maxTokensPerStep       most tokens (decode + prefill) one step may carry (max_num_tokens /
 *                               max_num_batched_tokens)
 * @param chunkedPrefill         long prompts split into chunks that share steps with decode (Sarathi-Serve); false
 *                               runs each prompt whole in one step
 * @param runtimeReserveBytes    device memory the runtime keeps besides weights, KV and activations: CUDA context,
 *                               GEMM and collective workspaces, CUDA-graph pools
 * @param fp8KvWithQuantizedWeights the KV cache is stored in fp8 when the weights are fp8 or fp4 (the quantized
 *                               checkpoints the runtime loads carry KV scales); otherwise in the 16-bit format
 * @param decodeAttention        the generation-phase attention kernel: whether a KV head is read once per query-head
 *                               group or once per query head
 * @param fp8ContextAttention    context (prefill) attention runs in fp8 when the KV cache is fp8; false when the
 *                               attention operator computes in 16 bits whatever the GEMMs use
 * @param quantizedMoe           MoE expert GEMMs run in the model's fp8/fp4 format; false when the runtime's MoE
 *                               kernels take only 16-bit experts, so a quantized checkpoint keeps its experts in 16
 *                               bits
 * @param hostSecondsPerRequest  host work per step for each request the step schedules (per-request scheduling,
 *                               input preparation, sampler and response bookkeeping), on top of hostSecondsPerStep
 * @param moeAttentionDp         MoE models run attention data-parallel over the tensor-parallel ranks (each rank its
 *                               own requests and KV cache) with the experts spread over those ranks
 * @param identicalPrompts       the benchmark fills every prompt of a static batch with the same tokens, so the
 *                               sequences stay identical and an MoE layer routes the whole batch to the same experts
 * @param benchmarkRequests      requests per (input, output) length of the runtime's published throughput benchmark
 *                               (a finite dataset queued at once); {@link BenchmarkRequests#NONE} when none is stated
 * @param mxfp4MoeW4a16          a model whose checkpoint ships MXFP4 experts (ArchitectureDetail.mxfp4Experts) runs
 *                               as shipped on a chip without FP4 tensor cores: experts W4A16 (MXFP4 weights
 *                               dequantized to bf16 inside the MoE kernel, bf16 MMA), every other GEMM, attention and
 *                               the KV cache in bf16, whatever precision the benchmark's table is headed with
 * @param benchBuildLimits       the engine's max batch size and max tokens per step are what the benchmark's build
 *                               heuristic sizes for the row's lengths (trtllm-bench build/throughput:
 *                               {@code tensorrt_llm/bench/build/tuning.py} finetune_setting), not the catalogue's
 *                               {@code max_batch} / {@code max_tokens_per_step}, which then only cap them
 * @param batchSizeTuning        the executor's dynamic batch-size tuner snaps the runtime batch size to its table
 *                               ({@code DynamicBatchTuner::getRuntimeBatchSize}, {@code kDefaultBatchSizeTable}) from
 *                               what the KV cache holds (TensorRT engine executor with
 *                               {@code enable_batch_size_tuning})
 * @param eagerHostSecondsPerKernel host time to dispatch one kernel of a step the runtime runs eagerly from Python
 *                               (a step it does not replay as a CUDA graph): eager PyTorch issues every operator
 *                               from the interpreter, so such a step costs at least its kernels x this on the host;
 *                               0 for runtimes whose steps are a compiled engine or a graph replay
 * @param allReduceSelection     which kernel runs a tensor-parallel all-reduce of a given size: the runtime's own
 *                               low-latency kernel, or NCCL above the runtime's size thresholds
 * @param benchSettingsTable     with {@code benchBuildLimits}: a model and layout the benchmark's per-model settings
 *                               table lists take that table's max batch size and max tokens instead of the
 *                               heuristic's (trtllm-bench 0.12-0.14, {@code benchmark_config.yml})
 */
public record ServingBehaviour(boolean continuousBatching, AttentionKernel attention, boolean cudaGraphs, boolean cudaGraphsMixedSteps,
                               double hostSecondsPerStep, boolean overlapScheduler, double requestSeconds,
                               double kvMemoryFraction, KvMemoryBasis kvMemoryBasis, KvAdmission kvAdmission,
                               int kvBlockTokens, int maxBatch, int maxTokensPerStep, boolean chunkedPrefill,
                               double runtimeReserveBytes, boolean fp8KvWithQuantizedWeights,
                               DecodeAttention decodeAttention, boolean fp8ContextAttention, boolean quantizedMoe,
                               double hostSecondsPerRequest, boolean moeAttentionDp, boolean identicalPrompts,
                               BenchmarkRequests benchmarkRequests, boolean mxfp4MoeW4a16, boolean benchBuildLimits,
                               boolean batchSizeTuning, double eagerHostSecondsPerKernel,
                               AllReduceSelection allReduceSelection, boolean benchSettingsTable) {

    private static final double GIB = 1024.0 * 1024 * 1024;

    /** What the KV fraction is a share of. */
    public enum KvMemoryBasis {
        /** Memory left after the weights and the runtime's buffers are allocated (TensorRT-LLM). */
        FREE_AFTER_LOAD,
        /** The whole device, weights included (vLLM gpu_memory_utilization, SGLang mem_fraction_static). */
        TOTAL;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How the scheduler reserves KV blocks when it admits a request. */
    public enum KvAdmission {
        /** Blocks for input + output reserved at admission; a started request is never paused. */
        RESERVE_FULL,
        /** Blocks for the tokens so far, more as the sequence grows; preempts when the pool runs out. */
        ON_DEMAND;

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The keys of a {@code serving} section, in catalogue order. */
    public static final List<String> KEYS = List.of("continuous_batching", "attention", "cuda_graphs", "cuda_graphs_mixed_steps",
            "host_step_ms", "overlap_scheduler", "request_overhead_ms", "kv_memory_fraction", "kv_memory_basis",
            "kv_admission", "kv_block_tokens", "max_batch", "max_tokens_per_step", "chunked_prefill",
            "runtime_reserve_gib", "fp8_kv_with_quantized_weights", "decode_attention", "fp8_context_attention",
            "quantized_moe", "host_request_us", "moe_attention_dp", "identical_prompts", "benchmark_requests",
            "mxfp4_moe_w4a16", "bench_build_limits", "batch_size_tuning", "eager_host_us_per_kernel",
            "allreduce_selection", "bench_settings_table");

    /**
     * The engine's runtime when none is named: the 2023 FasterTransformer-style C++ loop the NeMo Llama-2 latency
     * rows ran (docs/INFERENCE.md, "How the fixed costs were chosen"): eager launches, 0.2 ms host per step, 10 ms
     * per request; for continuous batching vLLM-like limits (90% of the device, blocks of 16, 256 sequences, 8,192
     * tokens per step, chunked prefill); FasterTransformer's masked multi-head decode attention; 16-bit attention;
     * quantized experts as the checkpoint gives them.
     */
    public static final ServingBehaviour ENGINE_DEFAULT = new ServingBehaviour(false, AttentionKernel.FLASH2, false, false,
            0.2e-3, false, 10e-3, 0.90, KvMemoryBasis.TOTAL, KvAdmission.ON_DEMAND, 16, 256, 8192, true, 1.0 * GIB,
            false, DecodeAttention.MASKED_MHA, false, true, 0, false, false, BenchmarkRequests.NONE, false, false, false, 0,
            AllReduceSelection.RUNTIME_KERNEL, false);

    public ServingBehaviour {
        if (!(kvMemoryFraction > 0 && kvMemoryFraction <= 1) || kvBlockTokens < 1 || maxBatch < 1
                || maxTokensPerStep < 1 || hostSecondsPerStep < 0 || requestSeconds < 0 || runtimeReserveBytes < 0
                || hostSecondsPerRequest < 0 || eagerHostSecondsPerKernel < 0) {
            throw new IllegalArgumentException("serving behaviour out of range: " + kvMemoryFraction + ", "
                    + kvBlockTokens + ", " + maxBatch + ", " + maxTokensPerStep);
        }
    }

    static ServingBehaviour read(StackFields f) {
        return new ServingBehaviour(f.bool("continuous_batching"), f.choice("attention", AttentionKernel.class), f.bool("cuda_graphs"),
                f.bool("cuda_graphs_mixed_steps"), f.number("host_step_ms", 0, 100) * 1e-3,
                f.bool("overlap_scheduler"), f.number("request_overhead_ms", 0, 10_000) * 1e-3,
                f.number("kv_memory_fraction", 0.01, 1), f.choice("kv_memory_basis", KvMemoryBasis.class),
                f.choice("kv_admission", KvAdmission.class), f.integer("kv_block_tokens", 1, 4096),
                f.integer("max_batch", 1, 1 << 20), f.integer("max_tokens_per_step", 1, 1 << 24),
                f.bool("chunked_prefill"), f.number("runtime_reserve_gib", 0, 64) * GIB,
                f.bool("fp8_kv_with_quantized_weights"), f.choice("decode_attention", DecodeAttention.class),
                f.bool("fp8_context_attention"), f.bool("quantized_moe"), f.number("host_request_us", 0, 10_000) * 1e-6,
                f.bool("moe_attention_dp"), f.bool("identical_prompts"), benchmarkRequests(f),
                f.bool("mxfp4_moe_w4a16"), f.bool("bench_build_limits"), f.bool("batch_size_tuning"),
                f.number("eager_host_us_per_kernel", 0, 1000) * 1e-6,
                f.choice("allreduce_selection", AllReduceSelection.class), f.bool("bench_settings_table"));
    }

    private static BenchmarkRequests benchmarkRequests(StackFields f) {
        String text = f.text("benchmark_requests");
        BenchmarkRequests b = BenchmarkRequests.parse(text);
        if (b == null) {
            f.error("benchmark_requests", "input/output:requests pairs, comma-separated (e.g. '128/128:30000, "
                    + "1000/1000:3000'), or an empty string", "'" + text + "'");
            return BenchmarkRequests.NONE;
        }
        return b;
    }

    /** The same runtime with decode steps replayed as graphs or not (a plan's explicit setting). */
    public ServingBehaviour withCudaGraphs(boolean on) {
        return new ServingBehaviour(continuousBatching, attention, on, on && cudaGraphsMixedSteps, hostSecondsPerStep, overlapScheduler,
                requestSeconds, kvMemoryFraction, kvMemoryBasis, kvAdmission, kvBlockTokens, maxBatch,
                maxTokensPerStep, chunkedPrefill, runtimeReserveBytes,
                fp8KvWithQuantizedWeights, decodeAttention, fp8ContextAttention, quantizedMoe,
                hostSecondsPerRequest, moeAttentionDp, identicalPrompts, benchmarkRequests, mxfp4MoeW4a16,
                benchBuildLimits, batchSizeTuning, eagerHostSecondsPerKernel, allReduceSelection, benchSettingsTable);
    }

    /** The same runtime with other scheduler limits (sweeps and fits). */
    public ServingBehaviour withLimits(int maxBatch, int maxTokensPerStep, boolean chunkedPrefill) {
        return new ServingBehaviour(continuousBatching, attention, cudaGraphs, cudaGraphsMixedSteps, hostSecondsPerStep, overlapScheduler,
                requestSeconds, kvMemoryFraction, kvMemoryBasis, kvAdmission, kvBlockTokens, maxBatch,
                maxTokensPerStep, chunkedPrefill, runtimeReserveBytes,
                fp8KvWithQuantizedWeights, decodeAttention, fp8ContextAttention, quantizedMoe,
                hostSecondsPerRequest, moeAttentionDp, identicalPrompts, benchmarkRequests, mxfp4MoeW4a16,
                benchBuildLimits, batchSizeTuning, eagerHostSecondsPerKernel, allReduceSelection, benchSettingsTable);
    }
}
