package io.ridgeline.engine.fit;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.inference.InferenceCases;
import io.ridgeline.engine.inference.InferenceMetrics;
import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.inference.InferenceStep;
import io.ridgeline.engine.inference.InferenceWorkload;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.validation.CaseMapper;
import org.apache.commons.math3.stat.regression.OLSMultipleLinearRegression;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where the serving model's errors on one GPU's inference rows come from (docs/CALIBRATION.md, "Why no constant
 * helps"): per scored row, the speed error s = ln(predicted / measured speed) (+ = the model too fast; a latency's
 * ratio is inverted) and the shares of the predicted time in compute, memory, communication and fixed overhead; then
 * the least-squares fit of s on those shares with one intercept per source (memory the baseline share), i.e. what
 * mis-modelled part of the time explains errors inside a source, where a source's own offset cannot. A diagnostic,
 * not a test.
 *
 * <p>Usage: {@code GPU CASE_FILE...} (e.g. {@code h100-sxm validation/cases-dev.csv validation/cases-dev-2.csv
 * validation/cases-dev-3.csv}).
 */
public final class ServingProbe {
    private ServingProbe() {
    }

    public static void main(String[] args) {
        CaseMapper mapper = new CaseMapper(HardwareCatalog.bundled());
        InferenceStep step = new InferenceStep();
        List<double[]> shares = new ArrayList<>();
        List<Double> speedError = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        for (String file : List.of(args).subList(1, args.length)) {
            for (CsvTable.Row r : CsvTable.read(Path.of(file)).rows()) {
                if (!r.string("phase").equals("inference") || !r.string("gpu").equals(args[0])) {
                    continue;
                }
                ServingBehaviour runtime = InferenceCases.runtime(r, mapper.stacks());
                InferencePlan plan = InferenceCases.plan(r, runtime);
                InferenceWorkload w = InferenceCases.workload(r, runtime);
                InferenceResult x = step.evaluate(mapper.model(r), mapper.system(r), plan, w);
                String metric = r.string("metric");
                if (!x.feasible()) {
                    continue;
                }
                double ratio = InferenceMetrics.predict(metric, x) / r.number("measured");
                double s = metric.contains("per_s") ? Math.log(ratio) : -Math.log(ratio);
                double total = x.computeSeconds() + x.memoryBoundSeconds() + x.communicationSeconds()
                        + x.overheadSeconds();
                double[] f = {x.computeSeconds() / total, x.memoryBoundSeconds() / total,
                        x.communicationSeconds() / total, x.overheadSeconds() / total};
                System.out.printf(Locale.ROOT, "%-34s %-10s %+.3f compute %.2f memory %.2f comm %.2f overhead %.2f "
                                + "in flight %.0f %s %s%n", r.string("case_id"), w.mode(), s, f[0], f[1], f[2], f[3],
                        x.concurrency(), plan, r.string("framework"));
                shares.add(f);
                speedError.add(s);
                sources.add(r.string("source"));
            }
        }
        Map<String, Integer> index = new LinkedHashMap<>();
        for (String s : sources) {
            index.putIfAbsent(s, index.size());
        }
        // Regressors: compute, communication and overhead shares (memory is the baseline: the four sum to 1) and one
        // intercept per source.
        double[][] x = new double[shares.size()][3 + index.size()];
        double[] y = new double[shares.size()];
        for (int i = 0; i < y.length; i++) {
            double[] f = shares.get(i);
            x[i][0] = f[0];
            x[i][1] = f[2];
            x[i][2] = f[3];
            x[i][3 + index.get(sources.get(i))] = 1;
            y[i] = speedError.get(i);
        }
        OLSMultipleLinearRegression ols = new OLSMultipleLinearRegression();
        ols.setNoIntercept(true);
        ols.newSampleData(y, x);
        double[] b = ols.estimateRegressionParameters();
        System.out.printf(Locale.ROOT, "%d rows, %d sources; within sources, ln speed error per unit share relative to "
                        + "memory: compute %+.3f, communication %+.3f, overhead %+.3f (residual sd %.3f)%n", y.length,
                index.size(), b[0], b[1], b[2], Math.sqrt(ols.estimateErrorVariance()));
    }
}
