package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.spec.LowerCaseId;

/** Why a point cannot run, in either phase. Infeasible is a value (a row with its reason), never an exception. */
public enum Infeasibility implements LowerCaseId {
    NONE,
    /** What a device must hold (weights, gradients, optimizer state, activations, KV cache) exceeds its memory. */
    MEMORY_CAPACITY,
    /** The plan does not fit the model or batch (parallelism.ShapeRules: heads % tp, batch % (dp x micro-batch)...). */
    PLAN_SHAPE,
    /** The plan needs more or other GPUs than the system has. */
    GPU_COUNT;
}
