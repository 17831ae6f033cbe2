package io.ridgeline.engine.validation;

import io.ridgeline.engine.inference.InferenceCases;
import io.ridgeline.engine.inference.InferenceMetrics;
import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceWorkload;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.inference.InferenceStep;
import io.ridgeline.engine.spec.CsvTable;

/**
 * Scores inference rows with {@link InferenceStep}: model and system from the {@link CaseMapper}; the serving runtime
 * from the row's {@code framework} (stack catalogue); plan and workload from {@link InferenceCases} (empty precision =
 * 16-bit; an empty batch on a throughput row of a continuous-batching runtime = saturation; a row whose metric lacks
 * its load is unscored with the reason); the metric through {@link InferenceMetrics}. Not thread-safe (one {@link InferenceStep} per instance).
 */
final class EngineInferencePredictor implements InferencePredictor {
    private final InferenceStep step = new InferenceStep();

    @Override
    public CaseOutcome predict(CaseOutcome.CaseKey key, CsvTable.Row row, double measured, CaseMapper mapper) {
        if (!InferenceMetrics.supports(key.metric())) {
            return CaseOutcome.unsupported(key, measured, "inference metric '" + key.metric() + "' is not modelled; "
                    + "known: " + InferenceMetrics.METRICS);
        }
        ServingBehaviour runtime;
        InferencePlan plan;
        InferenceWorkload workload;
        try {
            // The mapper's catalogue: a calibration's serving values apply like its hardware values.
            runtime = InferenceCases.runtime(row, mapper.stacks());
            plan = InferenceCases.plan(row, runtime);
            workload = InferenceCases.workload(row, runtime);
        } catch (InvalidInputException e) {
            // A row that lacks what its metric needs (e.g. a latency without a batch) is not scored, with the reason.
            return CaseOutcome.unsupported(key, measured, e.getMessage());
        }
        InferenceResult r = step.evaluate(mapper.model(row), mapper.system(row), plan, workload);
        if (!r.feasible()) {
            double predicted = Double.isFinite(r.e2eLatencySeconds()) ? InferenceMetrics.predict(key.metric(), r)
                    : Double.NaN;
            return CaseOutcome.infeasible(key, predicted, measured, r.infeasibility().id() + ": " + r.detail());
        }
        return CaseOutcome.ok(key, InferenceMetrics.predict(key.metric(), r), measured);
    }
}
