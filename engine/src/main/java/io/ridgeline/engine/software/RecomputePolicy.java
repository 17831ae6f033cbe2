package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.LowerCaseId;

/** What a stack does about activation recomputation when the user does not say. */
public enum RecomputePolicy implements LowerCaseId {
    /** Recompute nothing (the framework's default flag is off). */
    NONE,
    /**
     * The least recomputation that fits: a run that was tuned to fit keeps every activation it can and recomputes
     * whole layers only as far as memory requires (Megatron recompute_method=block with recompute_num_layers).
     */
    AUTO;
}
