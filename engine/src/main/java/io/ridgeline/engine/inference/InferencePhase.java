package io.ridgeline.engine.inference;

import io.ridgeline.engine.evaluation.PhaseModel;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelSpec;

/** The inference phase as the evaluator finds it (META-INF/services/io.ridgeline.engine.evaluation.PhaseModel). */
public final class InferencePhase implements PhaseModel {
    @Override
    public SweepSpec.Phase phase() {
        return SweepSpec.Phase.INFERENCE;
    }

    @Override
    public Points points(SweepSpec spec, ModelSpec[] models, HardwareCatalog hardware) {
        return new InferencePoints(spec, models, hardware);
    }
}
