package io.ridgeline.engine.training;

import io.ridgeline.engine.evaluation.PhaseModel;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelSpec;

/** The training phase as the evaluator finds it (META-INF/services/io.ridgeline.engine.evaluation.PhaseModel). */
public final class TrainingPhase implements PhaseModel {
    @Override
    public SweepSpec.Phase phase() {
        return SweepSpec.Phase.TRAINING;
    }

    @Override
    public Points points(SweepSpec spec, ModelSpec[] models, HardwareCatalog hardware) {
        return new TrainingPoints(spec, models, hardware);
    }
}
