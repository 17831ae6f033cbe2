package io.ridgeline.engine.training;

import io.ridgeline.engine.evaluation.PhaseModel;
import io.ridgeline.engine.sweep.SweepSpec;

/** The training phase as the evaluator finds it (META-INF/services/io.ridgeline.engine.evaluation.PhaseModel). */
public final class TrainingPhase extends PhaseModel {
    public TrainingPhase() {
        super(SweepSpec.Phase.TRAINING, TrainingPoints::new);
    }
}
