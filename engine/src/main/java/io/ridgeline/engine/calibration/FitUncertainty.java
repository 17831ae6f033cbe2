package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CatalogOverrides;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a held-out fold does not know about its own predictions: a recipe constant that the full recipe fits but the
 * fold cannot identify (no case of the fold's selection is sensitive to it, or too few cases: {@link FitResult#fitted}
 * false) stays at its a-priori start value, so the fold's prediction of a case that depends on it carries the
 * constant's a-priori uncertainty. A case's {@code fitVariance} is the variance of ln(prediction) with that constant
 * (and the paths tied to it) uniform over its prior range ({@link FitRecipe.RecipeParameter#priorLow}), the other
 * constants at the fold's values; unidentified constants count as independent (their variances add). The interval
 * then holds center +- t sqrt(s^2 + fitVariance) ({@link IntervalModel#covers(int, double, double)}): the prediction
 * variance of a regression is the residual variance plus the variance the parameter estimates pass to the prediction
 * (Seber and Wild 1989, Nonlinear Regression, sec. 5.1), here with the prior standing in for an estimate the fold's
 * data cannot make (a flat likelihood leaves the posterior at the prior: Gelman et al. 2013, Bayesian Data Analysis,
 * sec. 4.5). The shipped catalogues identify every fitted constant, so shipped predictions and eval carry none.
 *
 * <p>The variance is the midpoint rule over {@link #PRIOR_POINTS} equal slices of the range: exact for a prediction
 * piecewise-constant per slice, and it follows a kink (a host-bound step is max(host, device) in the host cost).
 */
final class FitUncertainty {
    /** Points of the midpoint rule over a prior range. */
    static final int PRIOR_POINTS = 8;
    /** ln-prediction spread below which a case is unmoved (floating-point rounding, not the constant). */
    private static final double ROUNDING = 1e-12;

    private FitUncertainty() {
    }

    /**
     * Per case of {@code cases}, the variance of ln(prediction) from the constants {@code fold} leaves unidentified
     * and {@code full} fits; 0 where there is none.
     *
     * @param fold the recipe replayed without the cases' source
     * @param full the recipe on every case (a constant it cannot identify either is no fold's blind spot)
     */
    static double[] variances(CaseScorer scorer, FitRecipe recipe, RecipeRun.Outcome full, RecipeRun.Outcome fold,
                              int[] cases) {
        double[] variance = new double[cases.length];
        double[] prediction = new double[cases.length];
        // ln(prediction) per prior point and case; two passes (mean, then squares about it) so that a case the
        // constant does not move gets exactly 0.
        double[][] logs = new double[PRIOR_POINTS][cases.length];
        List<FitRecipe.Entry> entries = recipe.entries();
        for (int e = 0; e < entries.size(); e++) {
            List<FitRecipe.RecipeParameter> ps = entries.get(e).parameters();
            for (int j = 0; j < ps.size(); j++) {
                if (!full.fits().get(e).fitted(j) || fold.fits().get(e).fitted(j)) {
                    continue;
                }
                FitRecipe.RecipeParameter p = ps.get(j);
                double slice = (p.priorHigh() - p.priorLow()) / PRIOR_POINTS;
                for (int i = 0; i < PRIOR_POINTS; i++) {
                    double value = p.priorLow() + (i + 0.5) * slice;
                    Map<String, Double> values = new LinkedHashMap<>(fold.values());
                    values.put(p.path(), value);
                    p.tied().forEach(t -> values.put(t, value));
                    scorer.predict(Catalogs.of(new CatalogOverrides("prior of " + p.path(), values)), cases,
                            prediction);
                    for (int k = 0; k < cases.length; k++) {
                        logs[i][k] = prediction[k] > 0 && Double.isFinite(prediction[k]) ? Math.log(prediction[k])
                                : Double.NaN;
                    }
                }
                for (int k = 0; k < cases.length; k++) {
                    variance[k] += variance(logs, k);
                }
            }
        }
        return variance;
    }

    /**
     * Population variance of column k over the points with a prediction; 0 with fewer than two, or when the
     * predictions differ by floating-point rounding only (a relative 1e-12: summation order in another catalogue).
     */
    private static double variance(double[][] logs, int k) {
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        int n = 0;
        for (double[] point : logs) {
            if (!Double.isNaN(point[k])) {
                sum += point[k];
                min = Math.min(min, point[k]);
                max = Math.max(max, point[k]);
                n++;
            }
        }
        if (n < 2 || max - min <= ROUNDING) {
            return 0;
        }
        double mean = sum / n;
        double squares = 0;
        for (double[] point : logs) {
            if (!Double.isNaN(point[k])) {
                squares += (point[k] - mean) * (point[k] - mean);
            }
        }
        return squares / n;
    }
}
