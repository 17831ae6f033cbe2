package io.ridgeline.engine.validation;

import io.ridgeline.engine.spec.CsvTable;

/** Scores inference rows; the engine's inference model plugs in here. */
public interface InferencePredictor {

    CaseOutcome predict(CaseOutcome.CaseKey key, CsvTable.Row row, double measured, CaseMapper mapper);

    /** The engine's inference model. */
    static InferencePredictor available() {
        return new EngineInferencePredictor();
    }
}
