/**
 * LLM inference on one serving replica: prefill (time to first token), decode (time per output token as the context
 * grows), end-to-end request latency, static-batch and continuous-batching throughput, KV-cache capacity, memory per
 * GPU, feasibility, bottleneck and energy (MODEL.md sec. 7).
 *
 * <p>Method: the hierarchical roofline of DeepFlow/Optimus (Kundu et al. 2024) for prefill GEMMs ({@code
 * ops.GemmModel}); decode GEMMs with M = batch read the local weights once per step; the per-token fixed costs that a
 * bandwidth-only model misses (kernel launches, small-message tensor-parallel all-reduce latency, sampling and host
 * work) are explicit, documented constants in {@link io.ridgeline.engine.inference.FixedCosts}. docs/INFERENCE.md lists
 * every constant with its source and the accuracy measured on the validation cases.
 */
package io.ridgeline.engine.inference;
