package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.spec.LowerCaseId;

/** The status column of a point row: ok, why it cannot run, or which constraint it breaks. */
public enum PointStatus implements LowerCaseId {
    OK, MEMORY_CAPACITY, PLAN_SHAPE, GPU_COUNT, NO_VALID_PLAN, CONSTRAINT;

    public static PointStatus of(Infeasibility i) {
        return switch (i) {
            case NONE -> OK;
            case MEMORY_CAPACITY -> MEMORY_CAPACITY;
            case PLAN_SHAPE -> PLAN_SHAPE;
            case GPU_COUNT -> GPU_COUNT;
        };
    }
}
