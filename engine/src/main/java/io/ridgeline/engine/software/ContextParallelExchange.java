package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.LowerCaseId;

/** How a stack's context parallelism moves K/V (and their gradients) between the cp ranks of one sequence. */
public enum ContextParallelExchange implements LowerCaseId {
    /**
     * Transformer Engine p2p ring (Megatron-core cp_comm_type p2p): each step sends the K/V chunk on to the next rank
     * while the step computes, so the exchange hides behind the layer's compute; backward passes dK/dV the same way.
     */
    RING,
    /**
     * PyTorch's experimental context_parallel with rotate method 'allgather' in eager mode
     * (torch/distributed/tensor/experimental/_attention.py, PyTorch 2.6): one all-gather of the K/V chunks per
     * attention call, waited before the second sub-attention (overlapped with the first); backward all-gathers K/V
     * again and passes the fp32 dK/dV accumulators around the ring, each send waited one step later, the last after
     * the loop.
     */
    ALLGATHER,
    /**
     * The same under torch.compile: traced functional collectives wait where they are issued
     * (_functional_collectives._maybe_wrap_tensor returns wait_tensor(...) while tracing) and Inductor leaves them
     * there (config.reorder_for_compute_comm_overlap False), so every all-gather and dK/dV send is exposed.
     */
    ALLGATHER_COMPILED
}
