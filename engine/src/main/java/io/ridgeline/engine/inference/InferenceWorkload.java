package io.ridgeline.engine.inference;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;

import java.util.ArrayList;
import java.util.List;

/**
 * What one replica serves.
 *
 * @param batch        static batch: requests prefilled together and decoded in lock-step (latency and throughput of
 *                     the static batch are reported for it)
 * @param inputTokens  prompt tokens per request
 * @param outputTokens generated tokens per request (the first comes out of prefill)
 * @param concurrency  requests in flight under continuous batching, for the serving throughput (equal to
 *                     {@code batch} for a plain static-batch workload)
 */
public record InferenceWorkload(int batch, int inputTokens, int outputTokens, int concurrency) {

    public InferenceWorkload {
        List<InputError> errors = new ArrayList<>();
        check(errors, "workload.batch", batch);
        check(errors, "workload.input_tokens", inputTokens);
        check(errors, "workload.output_tokens", outputTokens);
        check(errors, "workload.concurrency", concurrency);
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    /** A static batch; serving throughput is reported at the same concurrency. */
    public static InferenceWorkload staticBatch(int batch, int inputTokens, int outputTokens) {
        return new InferenceWorkload(batch, inputTokens, outputTokens, batch);
    }

    /** The context length of the last decode step. */
    public int maxContextTokens() {
        return inputTokens + outputTokens;
    }

    public InferenceWorkload withBatch(int b) {
        return new InferenceWorkload(b, inputTokens, outputTokens, concurrency);
    }

    public InferenceWorkload withConcurrency(int c) {
        return new InferenceWorkload(batch, inputTokens, outputTokens, c);
    }

    private static void check(List<InputError> errors, String field, int v) {
        if (v < 1) {
            errors.add(InputError.of("inference workload", field, "an integer >= 1", Integer.toString(v)));
        }
    }
}
