package io.ridgeline.engine.evaluation;

import java.util.Locale;

/** The status column of a point row: ok, why it cannot run, or which constraint it breaks. */
public enum PointStatus {
    OK, MEMORY_CAPACITY, PLAN_SHAPE, GPU_COUNT, NO_VALID_PLAN, CONSTRAINT;

    /** Lower-case name, computed once: ids are written per row in sweeps. */
    private final String id = name().toLowerCase(Locale.ROOT);

    public String id() {
        return id;
    }

    public static PointStatus of(Infeasibility i) {
        return switch (i) {
            case NONE -> OK;
            case MEMORY_CAPACITY -> MEMORY_CAPACITY;
            case PLAN_SHAPE -> PLAN_SHAPE;
            case GPU_COUNT -> GPU_COUNT;
        };
    }
}
