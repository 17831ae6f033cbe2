package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.LowerCaseId;

/** How a stack adds the biases of routed experts (GPT-OSS) around its grouped expert GEMMs. */
public enum ExpertBias implements LowerCaseId {
    /** Both biases in the grouped GEMM epilogues (and their gradients in the weight-gradient GEMMs): no extra pass. */
    FUSED,
    /**
     * The up projection's bias in the GEMM epilogue (Transformer Engine GroupedLinear), the down projection's output
     * bias weighted by the routing probability in an eager loop over the local experts, with fp32 temporaries, then a
     * concatenation and a cast (Megatron-core TEGroupedMLP._apply_bias, 0.14-0.18 outside the op fuser).
     */
    EAGER_OUTPUT,
    /**
     * Both biases in eager per-expert loops after grouped GEMMs that take none (torch._grouped_mm: NeMo AutoModel
     * GroupedExperts._apply_bias).
     */
    EAGER;
}
