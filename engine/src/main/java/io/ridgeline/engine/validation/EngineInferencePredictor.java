package io.ridgeline.engine.validation;

import io.ridgeline.engine.inference.InferenceCases;
import io.ridgeline.engine.inference.InferenceMetrics;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.inference.InferenceStep;
import io.ridgeline.engine.spec.CsvTable;

/**
 * Scores inference rows with {@link InferenceStep}: model and system from the {@link CaseMapper}, plan and workload
 * from {@link InferenceCases} (empty precision = 16-bit, no CUDA graphs, fused attention), the metric through
 * {@link InferenceMetrics}. Not thread-safe (one {@link InferenceStep} per instance).
 */
final class EngineInferencePredictor implements InferencePredictor {
    private final InferenceStep step = new InferenceStep();

    @Override
    public CaseOutcome predict(CaseOutcome.CaseKey key, CsvTable.Row row, double measured, CaseMapper mapper) {
        if (!InferenceMetrics.supports(key.metric())) {
            return CaseOutcome.unsupported(key, measured, "inference metric '" + key.metric() + "' is not modelled; "
                    + "known: " + InferenceMetrics.METRICS);
        }
        InferenceResult r = step.evaluate(mapper.model(row), mapper.system(row), InferenceCases.plan(row),
                InferenceCases.workload(row));
        if (!r.feasible()) {
            double predicted = Double.isFinite(r.e2eLatencySeconds()) ? InferenceMetrics.predict(key.metric(), r)
                    : Double.NaN;
            return CaseOutcome.infeasible(key, predicted, measured, r.infeasibility().id() + ": " + r.detail());
        }
        return CaseOutcome.ok(key, InferenceMetrics.predict(key.metric(), r), measured);
    }
}
