package io.ridgeline.engine.inference;

import io.ridgeline.engine.workload.ModelSpec;

/**
 * The engine limits trtllm-bench sizes for a dataset when the command states none (ServingBehaviour
 * {@code bench_build_limits}): {@code max_batch_size} and {@code max_num_tokens} from the dataset's input and output
 * lengths and its own estimate of the requests the KV cache holds (TensorRT-LLM {@code tensorrt_llm/bench/build/
 * tuning.py}, {@code calc_engine_setting} and {@code finetune_setting}, the revision that {@code build.py} calls for
 * FP8 and unquantized engines). The estimate is the script's, not the runtime's pool: it takes the engine as
 * {@code param_count / 1000^3 x bytes} "GB" against the device's GiB and 0.95 of the rest, and then rounds both limits
 * up ("slightly optimistic"), so the KV pool usually binds first; what the limits change is the tokens one step may
 * carry (prompt chunks) and the activation memory the engine reserves for them before the KV pool.
 *
 * <p>Not thread-safe: the last result is left in fields (no allocation per evaluation).
 */
final class BenchBuildLimits {
    /** tuning.py calc_engine_setting: kv_cache_gpu_mem_fraction default of the estimate. */
    static final double ESTIMATE_KV_FRACTION = 0.95;
    /** tuning.py finetune_setting: "Cap total batch size to avoid decoder buffer size becoming too large". */
    static final int BATCH_CAP = 4096;
    /** tuning.py finetune_setting: "Cap num tokens to avoid TRT activation buffer becoming too large". */
    static final int TOKEN_CAP = 32768;
    /** tuning.py finetune_setting: "Set min BS to be 64". */
    static final int MIN_BATCH = 64;
    /** tuning.py finetune_setting: "Set min to 2048 to ensure Ctx/Gen overlap efficiency". */
    static final int MIN_TOKENS = 2048;

    private static final double GIB = 1024.0 * 1024 * 1024;

    /** max_batch_size of the last {@link #size} call. */
    int maxBatch;
    /** max_num_tokens of the last {@link #size} call. */
    int maxTokens;
    /** The script's estimate of the requests its KV cache holds (before rounding). */
    double estimatedRequests;

    /**
     * The limits for a replica of {@code tp x pp} GPUs of {@code deviceBytes} each serving {@code inputTokens} /
     * {@code outputTokens} requests with {@code weightBytesPerParam} weights and {@code kvBytesPerElement} KV cache.
     */
    void size(ModelSpec model, int tp, int pp, double deviceBytes, double weightBytesPerParam,
              double kvBytesPerElement, int inputTokens, int outputTokens) {
        // calc_engine_setting: each GPU of the TP group holds at least one KV head.
        double kvHeads = Math.max(tp, model.kvHeads());
        double gbPerToken = 2.0 * model.layers() * kvHeads * model.headDim() * kvBytesPerElement / GIB;
        double engineGb = model.totalParams() / 1e9 * weightBytesPerParam;
        double availableGb = deviceBytes / GIB * tp * pp - engineGb;
        estimatedRequests = Math.max(0, availableGb * ESTIMATE_KV_FRACTION / gbPerToken
                / (inputTokens + outputTokens));
        // finetune_setting.
        double rawBatch = Math.min(estimatedRequests, BATCH_CAP) / pp;
        double rawTokens = Math.min(rawBatch * (1 + (double) inputTokens / outputTokens), TOKEN_CAP);
        maxBatch = rawBatch < 256 ? Math.max(MIN_BATCH, roundUp(rawBatch, 32))
                : rawBatch < 1024 ? roundUp(rawBatch, 128) : roundUp(rawBatch, 256);
        maxTokens = rawTokens < 4096 ? Math.max(MIN_TOKENS, roundUp(rawTokens, 256))
                : rawTokens < 8192 ? roundUp(rawTokens, 512) : roundUp(rawTokens, 1024);
    }

    private static int roundUp(double x, int step) {
        return (int) (step * Math.ceil(x / step));
    }
}
