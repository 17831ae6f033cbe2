package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.LowerCaseId;

/** How a stack moves MoE tokens to their experts' ranks and back (Megatron-core token dispatchers). */
public enum MoeDispatcher implements LowerCaseId {
    /**
     * Permute, then NCCL all-to-all with split sizes the host must know (the token counts per expert are copied to the
     * CPU once per MoE layer forward), then sort the received tokens by local expert (Megatron-core
     * MoEAlltoAllTokenDispatcher).
     */
    ALLTOALL,
    /**
     * Device-initiated dispatch and combine kernels (DeepEP, HybridEP: Megatron-core MoEFlexTokenDispatcher):
     * permutation fused into the communication kernels, a token crossing scale-up domains once per destination domain.
     * Dropless, the host still waits for the received token counts (the grouped GEMM needs them).
     */
    FLEX;
}
