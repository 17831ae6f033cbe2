package io.ridgeline.engine.training;

import java.util.Locale;

/** Why a point cannot run. Infeasible is a value (a row with its reason), never an exception. */
public enum Infeasibility {
    NONE,
    /** Weights, gradients, optimizer state and activations exceed device memory. */
    MEMORY_CAPACITY,
    /** The plan does not divide the model or batch (heads % tp, layers % pp, batch % (dp x micro-batch)...). */
    PLAN_SHAPE,
    /** The plan needs a different number of GPUs than the system has. */
    GPU_COUNT;

    /** Lower-case name, computed once: ids are written per row in sweeps. */
    private final String id = name().toLowerCase(Locale.ROOT);

    public String id() {
        return id;
    }
}
