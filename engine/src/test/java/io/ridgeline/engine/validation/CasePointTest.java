package io.ridgeline.engine.validation;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.inference.InferenceCases;
import io.ridgeline.engine.inference.InferenceMetrics;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.inference.InferenceStep;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.training.TrainingResult;
import io.ridgeline.engine.training.TrainingStep;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A case read as a one-point spec and evaluated through the evaluation facade predicts, to the last bit, what the
 * phase step predicts for the row's model, system, plan and workload called directly: the spec carries every input
 * of the case (scale-out rate, GPUs per node, plan, software, serving mode and benchmark requests).
 */
class CasePointTest {
    private static final Path DIR = Path.of(System.getProperty("ridgeline.validation.dir", "../validation"));

    @Test
    void facadePredictsWhatTheStepsPredictForEveryStatedCase() {
        HardwareCatalog hw = HardwareCatalog.bundled();
        CaseMapper mapper = new CaseMapper(hw);
        Validator validator = new Validator();
        TrainingStep training = new TrainingStep(hw);
        InferenceStep inference = new InferenceStep(hw);
        int trainingCases = 0;
        int inferenceCases = 0;
        for (String file : List.of("cases-dev.csv", "cases-dev-2.csv", "cases-dev-3.csv", "cases-dev-4.csv",
                "cases-dev-5.csv", "cases-dev-6.csv")) {
            for (CsvTable.Row r : CsvTable.read(DIR.resolve(file)).rows()) {
                CaseOutcome o = validator.score(file, r);
                double direct;
                try {
                    direct = direct(r, mapper, training, inference);
                } catch (InvalidInputException e) {
                    continue; // unscored either way
                }
                if (Double.isNaN(direct)) {
                    continue; // a searched micro-batch or expert-parallel size: the validator picks among plans
                }
                assertEquals(direct, o.predicted(), 0.0, file + " " + o.caseId());
                if (r.string("phase").equals("training")) {
                    trainingCases++;
                } else {
                    inferenceCases++;
                }
            }
        }
        assertTrue(trainingCases > 100 && inferenceCases > 100, trainingCases + " training and " + inferenceCases
                + " inference cases compared");
    }

    /** The step called directly on the row's inputs; NaN for rows the validator searches or other phases. */
    private static double direct(CsvTable.Row r, CaseMapper mapper, TrainingStep training, InferenceStep inference) {
        String metric = r.string("metric");
        switch (r.string("phase")) {
            case "training" -> {
                if (r.isEmpty("micro_batch") || (r.isEmpty("ep") && !r.isEmpty("moe_experts"))) {
                    return Double.NaN;
                }
                TrainingResult t = training.evaluate(mapper.model(r), (int) r.integer("seq_len"), mapper.system(r),
                        mapper.trainingPlan(r, (int) r.integer("micro_batch")));
                return metric.equals("iteration_time_s") ? t.stepTimeSeconds()
                        : t.tokensPerSecond() / r.integer("num_gpus");
            }
            case "inference" -> {
                if (!InferenceMetrics.supports(metric)) {
                    return Double.NaN;
                }
                ServingBehaviour runtime = InferenceCases.runtime(r, mapper.stacks());
                InferenceResult i = inference.evaluate(mapper.model(r), mapper.system(r),
                        InferenceCases.plan(r, runtime), InferenceCases.workload(r, runtime));
                return i.feasible() || Double.isFinite(i.e2eLatencySeconds()) ? InferenceMetrics.predict(metric, i)
                        : Double.NaN;
            }
            default -> {
                return Double.NaN;
            }
        }
    }
}
