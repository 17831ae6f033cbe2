package io.ridgeline.engine.inference;

import io.ridgeline.engine.software.ServingBehaviour;

/**
 * Steady state of continuous (in-flight) batching on one replica (Orca, OSDI'22; vLLM, SOSP'23; Sarathi-Serve,
 * OSDI'24), for the {@link ServingMode#SATURATED} and {@link ServingMode#ONLINE} modes.
 *
 * <p>With C requests in flight, each spends its prefill step(s) and then O - 1 decode steps, so on average
 * {@code d = C (O - 1) / (O - 1 + s_p)} sequences decode in a step. Balance: requests finish at the rate they start,
 * so every step also prefills {@code n = d / (O - 1)} prompts, {@code n x I} tokens. A prompt runs in {@code s_p}
 * chunks: one without chunked prefill; with it, as many as the token budget left beside the d decodes requires
 * ({@code ceil(I / (max tokens - d))}, usually one). A fraction of steps carries {@code ceil(n s_p)} chunks and the
 * rest {@code floor(n s_p)} (the average of the two step times, not the step time of the average: a memory-bound
 * decode step absorbs a few prompt tokens for free, a compute-bound one does not). Each step yields {@code n x O}
 * output tokens (d decode tokens plus n first tokens).
 *
 * <p>Concurrency: saturated, C is the most the runtime holds: the paged KV pool over each request's KV tokens
 * (input + output reserved at admission, or the mean live length when blocks are allocated on demand), the runtime's
 * max batch, and its token budget per step ({@code d + n I <= max tokens}). Online, C is the clients (closed loop),
 * capped by the same limits, the rest waiting in the queue; with a request rate, C follows from Little's law,
 * {@code C = rate x time in system}.
 *
 * <p>Pipeline parallelism: the runtime keeps one micro-batch per stage in flight (TensorRT-LLM PyExecutor
 * {@code num_micro_batches = pp_size}, GptSession {@code mNumMicroBatches} = the pipeline size; vLLM one virtual
 * engine per stage), each of C / pp requests, and schedules each with its own token budget and max batch
 * ({@code get_max_num_sequences} = pp x max_batch_size). In steady state every stage is busy: while one micro-batch
 * runs on a stage the others run on the others, so a cycle in which every request advances one token lasts one
 * micro-batch's pass through all the layers, and yields the tokens of all pp micro-batches. With fewer requests than
 * stages only that many micro-batches exist.
 *
 * <p>Online, a new prompt also queues for the step budget behind the prompts that arrived before it ({@link
 * PrefillQueue}): the runtimes schedule the running requests first and then the waiting prompts in arrival order
 * within the token budget (vLLM V1 Scheduler.schedule; TensorRT-LLM in-flight batching with FIRST_COME_FIRST_SERVED
 * context chunking), so prefill is a first-come-first-served server whose load grows with the arrival rate. The
 * requests waiting there are in the runtime (counted in C) but not yet in the decoding batch.
 *
 * <p>Not thread-safe: results are left in fields (no allocation per evaluation).
 */
final class ContinuousBatching {
    /** Fixed-point iterations for the online mode's time-in-system (converges in 3-4; 6 for margin). */
    private static final int ONLINE_ITERATIONS = 6;
    /** Relative change of the batch below which the online fixed point stops early (far below any reported digit). */
    private static final double CONVERGED_FRACTION = 1e-9;
    /** Bisection steps for the concurrency that a request rate implies (Little's law). */
    private static final int RATE_BISECTIONS = 30;

    private final Replica r;
    private final MixedStep step;
    private final InferenceMemory memory;
    private final ServingBehaviour runtime;
    private final BenchBuildLimits build = new BenchBuildLimits();
    /** The benchmark settings table's entries for this replica's model (empty when it lists none). */
    private final BenchSettingsTable.Entry[] listed;

    // Results of the last evaluation.
    double concurrency;
    double decodeSequences;
    double stepSeconds;
    double ttftSeconds;
    double interTokenSeconds;
    double outputTokensPerSecond;
    double kvPoolBytes;
    /**
     * Tokens one step may carry (the runtime's max tokens, at least one prompt without chunking); the runtime reserves
     * activation memory for this many tokens.
     */
    double stepTokens;
    /** Requests the KV cache and the runtime's limits let run at once (before any client cap). */
    double maxConcurrency;
    /** Step time one prompt's prefill adds over its chunks (the prefill server's service time). */
    double prefillServiceSeconds;
    /** Share of the time the steps spend on prefill: prompts per second x {@link #prefillServiceSeconds}. */
    double prefillUtilisation;
    /** Mean wait of a new prompt in the runtime before its first chunk: the step in progress, the prompts ahead. */
    double prefillQueueSeconds;
    /** The mean step without its prefill work: the decode part every step carries. */
    double decodeStepSeconds;
    /** The steps that carry one prompt's chunks, from the first to the one that yields its first token. */
    double promptSeconds;

    ContinuousBatching(Replica r, InferenceMemory memory) {
        this.r = r;
        this.step = new MixedStep(r);
        this.memory = memory;
        this.runtime = r.plan.runtime();
        this.listed = runtime.benchSettingsTable() ? BenchSettingsTable.entriesFor(r.model) : BenchSettingsTable.NONE;
    }

    /**
     * Maximum sustained throughput at an unlimited request rate, {@code cap} requests at most in flight (0: none).
     * With a finite run of {@code requests} requests queued at once (a benchmark's dataset; 0 = an endless stream),
     * the throughput is the run's: output tokens over the time its last request finishes.
     */
    void saturated(int inputTokens, int outputTokens, int cap, int requests, Breakdown acc) {
        limits(inputTokens, outputTokens);
        prefillQueueSeconds = 0;
        double c = cap > 0 ? Math.min(cap, maxConcurrency) : maxConcurrency;
        if (requests <= 0 || c < 1) {
            settle(c, inputTokens, outputTokens, acc);
            return;
        }
        run(Math.min(c, requests), requests, inputTokens, outputTokens, acc);
    }

    /**
     * A run of {@code requests} identical requests, all queued at once, at most {@code c} in flight (trtllm-bench
     * throughput with a prepare_dataset.py dataset of fixed lengths, perf-overview.md "Preparing a Dataset"): the
     * first c are admitted together, finish together and free their slots together, so the run is floor(N / c) full
     * waves at the steady state of c requests and a last wave of the N mod c left over, at the steady state of that
     * many (its weight reads and fixed costs shared by fewer tokens). Each wave lasts one request's lifetime, its
     * requests x output tokens / the wave's throughput. The fields describe a full wave; the throughput is the run's.
     */
    private void run(double c, int requests, int inputTokens, int outputTokens, Breakdown acc) {
        double waves = Math.floor(requests / c);
        double rest = requests - waves * c;
        double seconds = 0;
        if (rest >= 1) {
            settle(rest, inputTokens, outputTokens, null);
            seconds += rest * outputTokens / outputTokensPerSecond;
        }
        settle(c, inputTokens, outputTokens, acc);
        seconds += waves * c * outputTokens / outputTokensPerSecond;
        outputTokensPerSecond = (double) requests * outputTokens / seconds;
    }

    /**
     * {@code clients} closed-loop clients: each sends its next request when the previous one has completed. A client
     * spends the runtime's front-end time outside the engine, so fewer than all clients run at once; those beyond
     * the runtime's limits wait in its queue.
     */
    void onlineClients(int clients, int inputTokens, int outputTokens, Breakdown acc) {
        limits(inputTokens, outputTokens);
        double request = r.fixed.requestSeconds();
        // Requests in the runtime (decoding, or waiting for the budget to prefill them) and those in the batch.
        double running = Math.min(clients, maxConcurrency);
        double batch = running;
        double engine = 0;
        for (int i = 0; i < ONLINE_ITERATIONS && (request > 0 || clients > 1); i++) {
            engine = closedLoopEngineSeconds(clients, running, batch, inputTokens, outputTokens, null);
            double was = batch;
            running = Math.min(clients * engine / (engine + request), maxConcurrency);
            // Little's law on the batch: the requests past the prefill queue, running / engine x their time there.
            batch = running * (engine - prefillQueueSeconds) / engine;
            if (Math.abs(batch - was) <= CONVERGED_FRACTION * was) {
                break;
            }
        }
        engine = closedLoopEngineSeconds(clients, running, batch, inputTokens, outputTokens, acc);
        concurrency = running;
        // Closed loop: requests complete at running / engine per second; each client's cycle is clients / that.
        double requestsPerSecond = running / engine;
        double queue = Math.max(0, clients / requestsPerSecond - engine - request);
        ttftSeconds += request + queue;
        outputTokensPerSecond = requestsPerSecond * outputTokens;
    }

    /**
     * One closed-loop request's time in the runtime with {@code batch} requests in the batch and {@code running} in
     * the runtime; leaves the TTFT from arrival at the runtime in {@link #ttftSeconds}: the wait before its first chunk
     * ({@link PrefillQueue}), then its own chunks.
     */
    private double closedLoopEngineSeconds(int clients, double running, double batch, int inputTokens,
                                           int outputTokens, Breakdown acc) {
        settle(batch, inputTokens, outputTokens, acc);
        double othersInRuntime = running * (clients - 1.0) / clients;
        // Beyond the runtime's limits a completion admits the next queued request at once: the loop feeding the
        // prefill queue is then the runtime's slots, not the clients.
        int population = (int) Math.min(clients, Math.max(1, maxConcurrency));
        prefillQueueSeconds = PrefillQueue.closedLoopWaitSeconds(population, othersInRuntime, prefillUtilisation,
                prefillServiceSeconds, decodeStepSeconds);
        ttftSeconds = prefillQueueSeconds + promptSeconds;
        return ttftSeconds + (outputTokens - 1) * interTokenSeconds;
    }

    /**
     * Requests arriving at {@code requestsPerSecond}: the concurrency C with C = rate x time in system (Little's law),
     * found by bisection. Beyond the saturated throughput the queue grows without bound: TTFT is +infinity and the
     * throughput is the saturated one.
     */
    void onlineRate(double requestsPerSecond, int inputTokens, int outputTokens, Breakdown acc) {
        limits(inputTokens, outputTokens);
        double request = r.fixed.requestSeconds();
        settle(maxConcurrency, inputTokens, outputTokens, null);
        double most = maxConcurrency / (ttftSeconds + (outputTokens - 1) * interTokenSeconds);
        if (requestsPerSecond >= most) {
            settle(maxConcurrency, inputTokens, outputTokens, acc);
            ttftSeconds = Double.POSITIVE_INFINITY;
            prefillQueueSeconds = Double.POSITIVE_INFINITY;
            return;
        }
        double lo = 0;
        double hi = maxConcurrency;
        for (int i = 0; i < RATE_BISECTIONS; i++) {
            double mid = 0.5 * (lo + hi);
            settle(Math.max(mid, 1e-9), inputTokens, outputTokens, null);
            // Little's law on the batch: a request is in it from its first chunk to its last token.
            double inBatch = promptSeconds + (outputTokens - 1) * interTokenSeconds;
            if (requestsPerSecond * inBatch > mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        settle(Math.max(hi, 1e-9), inputTokens, outputTokens, acc);
        // Poisson arrivals see the time-average load (PASTA): the open-system wait; those waiting are in the runtime.
        prefillQueueSeconds = PrefillQueue.openWaitSeconds(prefillUtilisation, prefillServiceSeconds,
                decodeStepSeconds);
        concurrency += requestsPerSecond * prefillQueueSeconds;
        ttftSeconds = request + prefillQueueSeconds + promptSeconds;
        outputTokensPerSecond = requestsPerSecond * outputTokens;
    }

    /**
     * A decode-only pool of disaggregated serving (DistServe, OSDI'24; Splitwise, ISCA'24): prompts arrive prefilled
     * with their KV cache, so every step decodes only; each request holds input + output KV tokens. {@code cap}
     * limits the requests in flight (0: none, the KV cache and the runtime's limits decide).
     */
    void decodeOnly(int inputTokens, int outputTokens, double cap, Breakdown acc) {
        limits(inputTokens, outputTokens);
        prefillQueueSeconds = 0;
        double c = cap > 0 ? Math.min(cap, maxConcurrency) : maxConcurrency;
        concurrency = c;
        decodeSequences = c;
        double m = microBatches(c);
        double t = step.seconds(c / m, inputTokens + 0.5 * outputTokens, 0, inputTokens, 0, c / m, m, scratch(acc),
                weight(acc));
        stepSeconds = t;
        interTokenSeconds = t;
        ttftSeconds = 0;
        // Each request decodes O - 1 tokens here (its first came out of the prefill pool).
        outputTokensPerSecond = outputTokens > 1 ? c / t * outputTokens / (outputTokens - 1.0) : 0;
    }

    /**
     * The most requests the replica runs at once: KV pool / KV tokens per request (per attention group, times ep),
     * the runtime's max batch and its token budget. The pool is what is left after the activation memory the runtime
     * reserves for its most tokens per step: TensorRT sizes an engine's activations at build time for max_num_tokens
     * (TensorRT-LLM docs/source/reference/memory.md, "Activation size"), and the PyTorch executor and vLLM measure a
     * warm-up pass of that many tokens before sizing the pool. With {@code bench_build_limits} the max batch and the
     * max tokens are trtllm-bench's for these lengths ({@link BenchBuildLimits}); with {@code batch_size_tuning} the
     * executor's tuner may cap the batch below what the pool holds ({@link BatchSizeTuner}).
     */
    private void limits(int inputTokens, int outputTokens) {
        double perRequest = kvTokensPerRequest(inputTokens, outputTokens) * memory.kvBytesPerToken();
        double tokensPerDecode = outputTokens > 1 ? 1 + (double) inputTokens / (outputTokens - 1) : inputTokens;
        // Max batch and token budget hold per pipeline micro-batch (class comment).
        int pp = r.plan.pp();
        double maxBatch = (double) runtime.maxBatch() * pp;
        double maxTokens = runtime.maxTokensPerStep();
        if (runtime.benchBuildLimits()) {
            // The command's --tp covers the replica's tp x ep GPUs (attention data parallelism maps it to ep groups of
            // one); each group's scheduler runs up to max_batch_size requests of its own.
            BenchSettingsTable.Entry entry = BenchSettingsTable.lookup(listed, r.plan.tp() * r.ep, pp,
                    inputTokens + outputTokens);
            if (entry != null) {
                // A model the settings table lists is built with the table's limits, whatever memory is left.
                maxBatch = (double) entry.maxBatch() * r.ep * pp;
                maxTokens = entry.maxTokens();
            } else {
                build.size(r.model, r.plan.tp() * r.ep, pp, memory.capacityBytes(),
                        r.plan.weightPrecision().bytes(), r.plan.kvCachePrecision().bytes(), inputTokens,
                        outputTokens);
                maxBatch = Math.min(maxBatch, (double) build.maxBatch * r.ep * pp);
                maxTokens = Math.min(maxTokens, build.maxTokens);
            }
        }
        stepTokens = runtime.chunkedPrefill() ? maxTokens : Math.max(maxTokens, inputTokens);
        kvPoolBytes = memory.kvPoolBytes(runtime, stepTokens);
        double c = Math.floor(kvPoolBytes / perRequest) * r.ep;
        if (runtime.batchSizeTuning() && c >= 1) {
            c = Math.min(c, BatchSizeTuner.runtimeBatchSize((int) Math.min(Integer.MAX_VALUE, c)));
        }
        c = Math.min(c, maxBatch);
        // Token budget per step: d (1 + I / (O - 1)) <= budget, with d ~ c for long outputs.
        double byBudget = pp * stepTokens / tokensPerDecode
                * (outputTokens > 1 ? (outputTokens) / (outputTokens - 1.0) : 1);
        maxConcurrency = Math.max(0, Math.min(c, Math.floor(byBudget)));
    }

    /** Tokens of KV a request holds: input + output reserved at admission, or its mean live length on demand. */
    private double kvTokensPerRequest(int inputTokens, int outputTokens) {
        double block = runtime.kvBlockTokens();
        if (runtime.kvAdmission() == ServingBehaviour.KvAdmission.RESERVE_FULL) {
            return Math.ceil((inputTokens + outputTokens) / block) * block;
        }
        return inputTokens + 0.5 * outputTokens + 0.5 * block;
    }

    /** The steady state with {@code c} requests in flight: mean step time, TTFT from admission, throughput. */
    private void settle(double c, int inputTokens, int outputTokens, Breakdown acc) {
        concurrency = c;
        double in = inputTokens;
        if (c <= 0) {
            decodeSequences = 0;
            stepSeconds = Double.NaN;
            ttftSeconds = Double.NaN;
            interTokenSeconds = Double.NaN;
            outputTokensPerSecond = 0;
            prefillServiceSeconds = 0;
            prefillUtilisation = 0;
            decodeStepSeconds = 0;
            promptSeconds = Double.NaN;
            return;
        }
        if (outputTokens == 1) {
            // Prefill only: every step runs prompts (up to the budget), each yielding its one token; with pipeline
            // parallelism one such micro-batch per stage is in flight.
            double prompts = Math.min(c, Math.max(1, Math.floor(stepTokens / in)));
            double m = microBatches(c / prompts);
            double t = step.seconds(0, 0, prompts * in, in, prompts, prompts, m, scratch(acc), weight(acc));
            decodeSequences = 0;
            stepSeconds = t;
            interTokenSeconds = t;
            ttftSeconds = t;
            promptSeconds = t;
            // Every request in flight is a prompt in these steps: the settle above is the whole queue.
            prefillServiceSeconds = 0;
            prefillUtilisation = 0;
            decodeStepSeconds = 0;
            outputTokensPerSecond = m * prompts / t;
            return;
        }
        double decodeSteps = outputTokens - 1.0;
        double context = in + 0.5 * outputTokens;
        // Steps a prompt spends in prefill: 1 when whole. A chunked-prefill scheduler fills each step's token budget
        // with the running decodes first and prompt chunks after them (Sarathi-Serve sec. 4; vLLM scheduler; TRT-LLM
        // chunked context), so a prompt takes ceil(I / (budget - d)) steps: one when it fits beside the decodes.
        // Pipeline micro-batches in flight (class comment): each step below is one micro-batch's pass through all the
        // layers, and a cycle of the m micro-batches lasts one such pass.
        double m = microBatches(c);
        double d = c * decodeSteps / (decodeSteps + 1);
        double chunks = 1;
        if (runtime.chunkedPrefill()) {
            chunks = Math.max(1, Math.ceil(in / Math.max(1, stepTokens - d / m)));
            d = c * decodeSteps / (decodeSteps + chunks);
        }
        double n = d / decodeSteps;
        double dm = d / m;
        // Steps carry whole chunks: a fraction f of them floor(u) + 1 chunks and the rest floor(u), u = n x chunks per
        // micro-batch (the average of the two step times, not the step time of the average: a memory-bound decode
        // step absorbs a few prompt tokens for free, a compute-bound one does not).
        double chunkTokens = in / chunks;
        double u = n * chunks / m;
        double k = Math.floor(u);
        double f = u - k;
        double low = step.seconds(dm, context, k * chunkTokens, in, k / chunks, dm + k, m, scratch(acc),
                (1 - f) * weight(acc));
        double high = step.seconds(dm, context, (k + 1) * chunkTokens, in, (k + 1) / chunks, dm + k + 1, m,
                scratch(acc), f * weight(acc));
        double t = (1 - f) * low + f * high;
        double promptStep = high * chunks;
        // A prompt's chunks each lengthen its micro-batch's pass by high - low, the cycle by 1 / m of that; n / t
        // prompts start per second.
        prefillServiceSeconds = chunks * (high - low) / m;
        prefillUtilisation = n / t * prefillServiceSeconds;
        decodeStepSeconds = Math.max(0, t - n * prefillServiceSeconds);
        decodeSequences = d;
        stepSeconds = t;
        interTokenSeconds = t;
        // From admission: wait for the step boundary (half a step on average), then the step(s) carrying the prompt.
        promptSeconds = promptStep;
        ttftSeconds = 0.5 * t + promptStep;
        outputTokensPerSecond = n * outputTokens / t;
    }

    /**
     * Pipeline micro-batches in flight with {@code c} requests (or full micro-batches): one per stage, fewer when
     * there are fewer; 1 without pipeline parallelism.
     */
    private double microBatches(double c) {
        int pp = r.plan.pp();
        return pp == 1 ? 1 : Math.max(1, Math.min(pp, c));
    }

    private final Breakdown discard = new Breakdown();

    private Breakdown scratch(Breakdown acc) {
        return acc == null ? discard : acc;
    }

    private static double weight(Breakdown acc) {
        return acc == null ? 0 : 1;
    }
}
