package io.ridgeline.engine.calibration;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.spec.InvalidInputException;

import java.util.ArrayList;
import java.util.List;

/**
 * One case's cross-validated residual: ln(predicted time / measured time) with the prediction made by constants fitted
 * without the case's source, and the keys of its interval group.
 *
 * @param stack       the stack profile the case's framework resolves to ("" when it names none)
 * @param family      the chip family of the case's GPU
 * @param fitVariance variance of ln(prediction) from fitted constants the prediction's fold could not identify
 *                    ({@link FitUncertainty}); 0 when it identified every constant the case depends on
 */
public record HeldOutResidual(IntervalOutput output, String stack, String family, String source,
                              double logTimeRatio, double fitVariance) {

    /** A residual whose prediction rests on identified constants only. */
    public HeldOutResidual(IntervalOutput output, String stack, String family, String source, double logTimeRatio) {
        this(output, stack, family, source, logTimeRatio, 0);
    }

    /**
     * The residuals of the cases with a held-out prediction and an interval output (memory rows have none).
     *
     * @param predictions held-out predictions aligned with {@code cases}
     */
    public static List<HeldOutResidual> of(CaseScorer scorer, int[] cases, double[] predictions, Catalogs catalogs) {
        return of(scorer, cases, predictions, new double[cases.length], catalogs);
    }

    /** The same with each prediction's {@code fitVariance}, aligned with {@code cases}. */
    public static List<HeldOutResidual> of(CaseScorer scorer, int[] cases, double[] predictions, double[] fitVariances,
                                           Catalogs catalogs) {
        List<HeldOutResidual> out = new ArrayList<>();
        HardwareCatalog hw = catalogs.hardware();
        for (int k = 0; k < cases.length; k++) {
            MeasuredCase c = scorer.cases().get(cases[k]);
            IntervalOutput o = IntervalOutput.ofMetric(c.metric());
            double p = predictions[k];
            if (o == null || !(p > 0) || !Double.isFinite(p) || !hw.hasChip(c.gpu())) {
                continue;
            }
            double ratio = IntervalOutput.isRate(c.metric()) ? c.measured() / p : p / c.measured();
            out.add(new HeldOutResidual(o, stack(catalogs, c.framework()), hw.chip(c.gpu()).family().name(),
                    c.source(), StrictMath.log(ratio), fitVariances[k]));
        }
        return out;
    }

    static String stack(Catalogs catalogs, String framework) {
        if (framework.isEmpty()) {
            return "";
        }
        try {
            return catalogs.stacks().resolve(framework, "framework").profile().id();
        } catch (InvalidInputException e) {
            return framework;
        }
    }
}
