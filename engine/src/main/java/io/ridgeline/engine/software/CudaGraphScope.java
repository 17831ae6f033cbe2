package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.LowerCaseId;

/**
 * Which parts of an eager training layer a stack captures as CUDA graphs (Megatron-core {@code cuda_graph_impl =
 * "transformer_engine"} with {@code cuda_graph_scope}): each captured module replays as one graph launch per pass, forward
 * and backward (Transformer Engine make_graphed_callables captures both), instead of one host dispatch per kernel. The
 * rest of the layer stays eager; a whole step under graphs is {@code cuda_graphs}.
 */
public enum CudaGraphScope implements LowerCaseId {
    /** Nothing captured. */
    NONE,
    /** The MoE router and the token dispatcher's preprocess (scope ["moe_router", "moe_preprocess"]). */
    MOE_ROUTER_PREPROCESS,
    /** The attention block as well (scope ["attn", "moe_router", "moe_preprocess"]). */
    ATTN_MOE_ROUTER_PREPROCESS;

    /** The MoE router and dispatch preprocess replay as graphs. */
    public boolean moeRouter() {
        return this != NONE;
    }

    /** The attention block (input norm to the residual add) replays as a graph. */
    public boolean attention() {
        return this == ATTN_MOE_ROUTER_PREPROCESS;
    }
}
