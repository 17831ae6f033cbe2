package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CatalogOverrides;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The cases, their measurements and weights, and predictions for any parameter vector. */
final class FitProblem {
    private final CaseScorer scorer;
    private final CatalogOverrides fixed;
    private final Fitter.Loss loss;
    final int[] cases;
    final List<Parameter> parameters;
    final double[] measured;
    final double[] weight;
    /** Values the penalty pulls towards (the start values: the catalogue prior). */
    final double[] prior;
    /** sqrt(lambda n): weight of a penalty row; 0 = no penalty. */
    final double penaltyRoot;
    Catalogs lastCatalogs;
    double[] lastX;

    /**
     * @param fixed  values in force that are not fitted
     * @param weight per-case weights of the residuals (the absolute loss changes them between solves)
     * @param prior  values the ridge penalty pulls towards
     * @param lambda ridge penalty strength per case (see {@link #penalty}); 0 = none
     */
    FitProblem(CaseScorer scorer, CatalogOverrides fixed, Fitter.Loss loss, int[] cases, List<Parameter> parameters,
               double[] measured, double[] weight, double[] prior, double lambda) {
        this.scorer = scorer;
        this.fixed = fixed;
        this.loss = loss;
        this.cases = cases;
        this.parameters = parameters;
        this.measured = measured;
        this.weight = weight;
        this.prior = prior.clone();
        this.penaltyRoot = Math.sqrt(lambda * cases.length);
    }

    /**
     * The ridge (Tikhonov) row of parameter j: sqrt(lambda n) (x_j - prior_j) / (upper_j - lower_j), so the objective
     * is sum of squared case residuals + lambda n sum_j (deviation as a fraction of the range)^2 (Hastie, Tibshirani &
     * Friedman, ESL sec. 3.4.1, with the prior as the centre); n makes lambda a cost per case.
     */
    double penalty(int j, double x) {
        Parameter p = parameters.get(j);
        return penaltyRoot * (x - prior[j]) / (p.upper() - p.lower());
    }

    CaseScorer scorer() {
        return scorer;
    }

    Catalogs catalogs(double[] x) {
        if (lastX != null && Arrays.equals(lastX, x)) {
            return lastCatalogs;
        }
        Map<String, Double> v = new LinkedHashMap<>(fixed.values());
        for (int j = 0; j < x.length; j++) {
            v.put(parameters.get(j).path(), x[j]);
        }
        lastCatalogs = Catalogs.of(new CatalogOverrides("fit candidate", v));
        lastX = x.clone();
        return lastCatalogs;
    }

    double[] predict(double[] x) {
        double[] out = new double[cases.length];
        scorer.predict(catalogs(x), cases, out);
        return out;
    }

    double residual(int i, double predicted) {
        double r = Double.isFinite(predicted) ? (predicted - measured[i]) / measured[i] : 1.0;
        return weight[i] * loss.transform(r);
    }

    double[] residuals(double[] predictions) {
        double[] r = new double[cases.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = residual(i, predictions[i]);
        }
        return r;
    }

    /**
     * Per parameter, what moving it 5% of its range (inwards) does: whether it moves any case's relative error by
     * {@link Fitter#SENSITIVITY_FLOOR}, and how many sources' mean |change of relative error| reaches
     * {@link Fitter#IDENTIFICATION_FLOOR}.
     */
    Sensitivity sensitivity(double[] x, double[] predictions) {
        boolean[] any = new boolean[x.length];
        int[] sources = new int[x.length];
        Catalogs base = catalogs(x);
        double[] moved = new double[cases.length];
        for (int j = 0; j < x.length; j++) {
            Parameter p = parameters.get(j);
            double probe = Fitter.PROBE_FRACTION * (p.upper() - p.lower());
            double[] y = x.clone();
            y[j] = x[j] + probe <= p.upper() ? x[j] + probe : x[j] - probe;
            Catalogs c = catalogs(y);
            scorer.predictChanged(base, c, cases, predictions, moved);
            // source -> {cases, sum of |change|}
            Map<String, double[]> perSource = new HashMap<>();
            for (int i = 0; i < cases.length; i++) {
                double a = Double.isFinite(predictions[i]) ? predictions[i] : 0;
                double b = Double.isFinite(moved[i]) ? moved[i] : 0;
                double change = Math.abs(b - a) / measured[i];
                any[j] |= change > Fitter.SENSITIVITY_FLOOR;
                double[] acc = perSource.computeIfAbsent(scorer.cases().get(cases[i]).source(), k -> new double[2]);
                acc[0]++;
                acc[1] += change;
            }
            for (double[] acc : perSource.values()) {
                sources[j] += acc[1] / acc[0] >= Fitter.IDENTIFICATION_FLOOR ? 1 : 0;
            }
        }
        return new Sensitivity(any, sources);
    }

    /**
     * @param any     per parameter: some case's relative error moves by more than the sensitivity floor
     * @param sources per parameter: sources whose mean relative error moves by the identification floor
     */
    record Sensitivity(boolean[] any, int[] sources) {
    }
}
