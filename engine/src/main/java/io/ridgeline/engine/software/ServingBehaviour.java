package io.ridgeline.engine.software;

import java.util.List;

/**
 * What a serving runtime does that changes request latency and throughput (docs/INFERENCE.md, "Runtimes"). Read from
 * the {@code serving} section of a {@code catalog/stacks.yaml} entry.
 *
 * @param attention  the prefill attention kernel
 * @param cudaGraphs decode steps replayed as CUDA graphs
 */
public record ServingBehaviour(AttentionKernel attention, boolean cudaGraphs) {

    /** The keys of a {@code serving} section, in catalogue order. */
    public static final List<String> KEYS = List.of("attention", "cuda_graphs");

    static ServingBehaviour read(StackFields f) {
        return new ServingBehaviour(f.choice("attention", AttentionKernel.class), f.bool("cuda_graphs"));
    }
}
