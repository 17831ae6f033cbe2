package io.ridgeline.engine.validation;

import io.ridgeline.engine.spec.CsvTable;

/** Scores inference rows; the engine's inference model plugs in here. */
public interface InferencePredictor {

    CaseOutcome predict(CaseOutcome.CaseKey key, CsvTable.Row row, double measured, CaseMapper mapper);

    /** The engine's inference model. */
    static InferencePredictor available() {
        return (key, row, measured, mapper) -> CaseOutcome.unsupported(key, measured,
                "inference phase: the inference model is not part of this build yet");
    }
}
