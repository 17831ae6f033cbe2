package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.LowerCaseId;

/** How a stack moves MoE tokens to their experts' ranks and back (Megatron-core token dispatchers). */
public enum MoeDispatcher implements LowerCaseId {
    /**
     * Permute, then NCCL all-to-all with split sizes the host must know: the token counts per expert are copied to the
     * CPU once per MoE layer and pass, so the host cannot run ahead of the GPU across that point (Megatron-core
     * MoEAlltoAllTokenDispatcher).
     */
    ALLTOALL,
    /**
     * Device-initiated dispatch and combine kernels (DeepEP, HybridEP: Megatron-core MoEFlexTokenDispatcher): no host
     * synchronisation, permutation fused into the communication kernels.
     */
    FLEX;
}
