package io.ridgeline.engine.validation;

import io.ridgeline.engine.inference.InferenceCases;
import io.ridgeline.engine.inference.InferenceMetrics;
import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceWorkload;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.workload.ModelSpec;

/**
 * Scores inference rows through the evaluation facade ({@link CaseMapper#evaluators}), the row read as a one-point
 * spec ({@link CasePoint}): model and system from the {@link CaseMapper}; the serving runtime from the row's
 * {@code framework} (stack catalogue); plan and workload from {@link InferenceCases} (empty precision = 16-bit; an
 * empty batch on a throughput row of a continuous-batching runtime = saturation; a row whose metric lacks its load is
 * unscored with the reason); the metric through {@link InferenceMetrics}.
 */
final class EngineInferencePredictor implements InferencePredictor {

    @Override
    public CaseOutcome predict(CaseOutcome.CaseKey key, CsvTable.Row row, double measured, CaseMapper mapper) {
        if (!InferenceMetrics.supports(key.metric())) {
            return CaseOutcome.unsupported(key, measured, "inference metric '" + key.metric() + "' is not modelled; "
                    + "known: " + InferenceMetrics.METRICS);
        }
        String software;
        InferencePlan plan;
        InferenceWorkload workload;
        try {
            // The mapper's catalogue: a calibration's serving values apply like its hardware values.
            ServingBehaviour runtime = InferenceCases.runtime(row, mapper.stacks());
            software = row.isEmpty("framework") ? "" : mapper.resolve(row).profile().id();
            plan = InferenceCases.plan(row, runtime);
            workload = InferenceCases.workload(row, runtime);
        } catch (InvalidInputException e) {
            // A row that lacks what its metric needs (e.g. a latency without a batch) is not scored, with the reason.
            return CaseOutcome.unsupported(key, measured, e.getMessage());
        }
        ModelSpec model = mapper.model(row);
        mapper.system(row); // rejects an unknown gpu id, as for every phase
        InferenceResult r = (InferenceResult) mapper.evaluators().of(CasePoint.inference(row, model.name(), software,
                plan, workload), model).result(0);
        if (!r.feasible()) {
            double predicted = Double.isFinite(r.e2eLatencySeconds()) ? InferenceMetrics.predict(key.metric(), r)
                    : Double.NaN;
            return CaseOutcome.infeasible(key, predicted, measured, r.infeasibility().id() + ": " + r.detail());
        }
        return CaseOutcome.ok(key, InferenceMetrics.predict(key.metric(), r), measured);
    }
}
