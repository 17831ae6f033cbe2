package io.ridgeline.engine.inference;

import io.ridgeline.engine.spec.LowerCaseId;
import io.ridgeline.engine.spec.Names;

/**
 * How requests reach a replica (docs/INFERENCE.md, "Serving modes"). The mode decides what the latency and throughput
 * fields of an {@link InferenceResult} mean.
 */
public enum ServingMode implements LowerCaseId {
    /** A fixed batch prefilled together, then decoded in lock-step (FasterTransformer / TensorRT-LLM 0.5 sessions). */
    STATIC,
    /**
     * Continuous (in-flight) batching at an unlimited request rate (Orca, OSDI'22; trtllm-bench throughput): as many
     * requests in flight as the KV cache and the runtime's limits allow; reports the maximum sustained throughput.
     */
    SATURATED,
    /**
     * Continuous batching with a fixed number of clients, each sending its next request when the last one finishes
     * (or at a fixed request rate): TTFT includes waiting behind other prompts, inter-token latency reflects mixed
     * prefill/decode steps.
     */
    ONLINE;

    /** Parses "static", "saturated", "online" (any case); null when unknown. */
    public static ServingMode parse(String s) {
        return Names.parse(ServingMode.class, s);
    }
}
