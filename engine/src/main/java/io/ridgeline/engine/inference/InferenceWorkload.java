package io.ridgeline.engine.inference;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;

import java.util.ArrayList;
import java.util.List;

/**
 * What one replica serves, and how requests arrive ({@link ServingMode}).
 *
 * @param mode              static batch, saturated continuous batching, or online clients
 * @param batch             static: requests prefilled together and decoded in lock-step; ignored (0) otherwise
 * @param inputTokens       prompt tokens per request
 * @param outputTokens      generated tokens per request (the first comes out of prefill)
 * @param concurrency       static: requests in flight for the legacy serving-throughput field (= batch by default);
 *                          saturated: a cap on requests in flight (0 = none: the runtime's limits decide);
 *                          online: concurrent clients (0 when a request rate is given)
 * @param requestsPerSecond online only: requests arriving per second per replica (Poisson-free, steady rate); 0 when
 *                          the load is given as clients
 * @param requests          saturated only: a finite set of requests queued at once, the throughput being their output
 *                          tokens over the time the last one finishes (a benchmark run); 0 = an endless stream (the
 *                          steady state)
 */
public record InferenceWorkload(ServingMode mode, int batch, int inputTokens, int outputTokens, int concurrency,
                                double requestsPerSecond, int requests) {

    public InferenceWorkload {
        List<InputError> errors = new ArrayList<>();
        if (mode == null) {
            errors.add(InputError.of("inference workload", "workload.mode", "one of [static, saturated, online]",
                    null));
        }
        check(errors, "workload.input_tokens", inputTokens, 1);
        check(errors, "workload.output_tokens", outputTokens, 1);
        if (mode == ServingMode.STATIC) {
            check(errors, "workload.batch", batch, 1);
            check(errors, "workload.concurrency", concurrency, 1);
        } else if (mode == ServingMode.SATURATED) {
            check(errors, "workload.concurrency", concurrency, 0);
            check(errors, "workload.requests", requests, 0);
        } else if (mode == ServingMode.ONLINE) {
            boolean clients = concurrency >= 1;
            boolean rate = requestsPerSecond > 0 && Double.isFinite(requestsPerSecond);
            if (clients == rate) {
                errors.add(InputError.of("inference workload", "workload.concurrency",
                        "either concurrent clients (an integer >= 1) or a request rate (requests_per_s > 0), not both",
                        "concurrency " + concurrency + ", requests_per_s " + requestsPerSecond));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    /** A workload of an endless stream of requests (no finite benchmark run). */
    public InferenceWorkload(ServingMode mode, int batch, int inputTokens, int outputTokens, int concurrency,
                             double requestsPerSecond) {
        this(mode, batch, inputTokens, outputTokens, concurrency, requestsPerSecond, 0);
    }

    /** Legacy static workload: a static batch, with the serving-throughput field at {@code concurrency}. */
    public InferenceWorkload(int batch, int inputTokens, int outputTokens, int concurrency) {
        this(ServingMode.STATIC, batch, inputTokens, outputTokens, concurrency, 0);
    }

    /** A static batch; the serving-throughput field is reported at the same concurrency. */
    public static InferenceWorkload staticBatch(int batch, int inputTokens, int outputTokens) {
        return new InferenceWorkload(ServingMode.STATIC, batch, inputTokens, outputTokens, batch, 0);
    }

    /** Continuous batching at an unlimited request rate: the runtime's limits and the KV cache set the concurrency. */
    public static InferenceWorkload saturated(int inputTokens, int outputTokens) {
        return new InferenceWorkload(ServingMode.SATURATED, 0, inputTokens, outputTokens, 0, 0);
    }

    /**
     * A benchmark run at an unlimited request rate: {@code requests} requests queued at once (trtllm-bench
     * throughput), reported as their output tokens over the run's time; 0 requests = the steady state.
     */
    public static InferenceWorkload saturatedRun(int requests, int inputTokens, int outputTokens) {
        return new InferenceWorkload(ServingMode.SATURATED, 0, inputTokens, outputTokens, 0, 0, requests);
    }

    /** {@code clients} concurrent clients, each sending its next request as soon as the previous one completes. */
    public static InferenceWorkload online(int clients, int inputTokens, int outputTokens) {
        return new InferenceWorkload(ServingMode.ONLINE, 0, inputTokens, outputTokens, clients, 0);
    }

    /** Requests arriving at a steady {@code requestsPerSecond} per replica. */
    public static InferenceWorkload onlineRate(double requestsPerSecond, int inputTokens, int outputTokens) {
        return new InferenceWorkload(ServingMode.ONLINE, 0, inputTokens, outputTokens, 0, requestsPerSecond);
    }

    /** The context length of the last decode step. */
    public int maxContextTokens() {
        return inputTokens + outputTokens;
    }

    public InferenceWorkload withBatch(int b) {
        return new InferenceWorkload(mode, b, inputTokens, outputTokens, concurrency, requestsPerSecond, requests);
    }

    public InferenceWorkload withConcurrency(int c) {
        return new InferenceWorkload(mode, batch, inputTokens, outputTokens, c, requestsPerSecond, requests);
    }

    private static void check(List<InputError> errors, String field, int v, int min) {
        if (v < min) {
            errors.add(InputError.of("inference workload", field, "an integer >= " + min, Integer.toString(v)));
        }
    }
}
