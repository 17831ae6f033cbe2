package io.ridgeline.engine.inference;

import io.ridgeline.engine.evaluation.PhaseModel;
import io.ridgeline.engine.sweep.SweepSpec;

/** The inference phase as the evaluator finds it (META-INF/services/io.ridgeline.engine.evaluation.PhaseModel). */
public final class InferencePhase extends PhaseModel {
    public InferencePhase() {
        super(SweepSpec.Phase.INFERENCE, InferencePoints::new);
    }
}
