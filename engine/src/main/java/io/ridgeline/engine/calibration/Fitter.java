package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CatalogOverrides;
import org.apache.commons.math3.exception.TooManyEvaluationsException;
import org.apache.commons.math3.exception.TooManyIterationsException;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;
import org.apache.commons.math3.fitting.leastsquares.ValueAndJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounded least squares over catalogue constants: minimises sum_i w_i^2 ((predicted_i - measured_i) / measured_i)^2
 * over the given cases with Apache Commons Math's Levenberg-Marquardt (Moré 1978, MINPACK's lmder). Bounds by the
 * sine transform of {@link BoundTransform}. A prediction is the validation code's, with the catalogues built from the
 * candidate values ({@link Catalogs#of}); the Jacobian is by forward differences, each column re-scoring only the
 * cases whose chip, network or stack the parameter changes ({@link CaseScorer#predictChanged}).
 *
 * <p>Before optimising, every parameter is moved 5% of its range: one that moves no case's relative error by
 * {@link #SENSITIVITY_FLOOR} is left at its start value (the cases say nothing about it), and so is everything when
 * fewer cases than parameters remain. A case the engine predicts nothing for counts as a 100% error.
 */
public final class Fitter {
    /** How cases are weighted in the sum of squares. */
    public enum Weighting {
        /** Every case counts the same (the residual is the case's relative error). */
        CASE,
        /** Every source counts the same: a case's squared error is divided by its source's case count. */
        SOURCE;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * How residuals enter the objective. {@link #LINEAR} is plain least squares; {@link #SOFT_L1} is the robust
     * loss rho(z) = 2 (sqrt(1 + z) - 1) on z = (r / scale)^2 (scipy.optimize.least_squares "soft_l1"): quadratic for
     * errors well below {@link #SOFT_L1_SCALE}, linear (like mean |error|) above it, so a few cases whose mechanism the
     * model lacks cannot pull every constant. It is applied by handing the optimiser sign(r) scale sqrt(rho(z)).
     */
    public enum Loss {
        LINEAR, SOFT_L1;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        double transform(double r) {
            if (this == LINEAR) {
                return r;
            }
            double z = (r / SOFT_L1_SCALE) * (r / SOFT_L1_SCALE);
            return Math.signum(r) * SOFT_L1_SCALE * Math.sqrt(2 * (Math.sqrt(1 + z) - 1));
        }
    }

    /** Relative error at which the soft-L1 loss turns from quadratic to linear (10%). */
    public static final double SOFT_L1_SCALE = 0.10;

    /** Forward-difference step, as a fraction of the parameter's range. */
    static final double STEP_FRACTION = 1e-3;
    /** Probe of the sensitivity check, as a fraction of the parameter's range. */
    static final double PROBE_FRACTION = 0.05;
    /** A parameter whose probe moves no case's relative error by this much is not fitted. */
    static final double SENSITIVITY_FLOOR = 1e-4;
    static final int MAX_EVALUATIONS = 150;

    private final CaseScorer scorer;
    private final CatalogOverrides fixed;
    private final Weighting weighting;
    private final Loss loss;

    /**
     * @param fixed values in force that are not fitted (a loaded profile, other fits of a recipe); fitted paths
     *              override them
     */
    public Fitter(CaseScorer scorer, CatalogOverrides fixed, Weighting weighting, Loss loss) {
        this.scorer = scorer;
        this.fixed = fixed;
        this.weighting = weighting;
        this.loss = loss;
    }

    /** Fits {@code parameters} from {@code start} on the cases with these indices. */
    public FitResult fit(int[] cases, List<Parameter> parameters, double[] start) {
        long t0 = System.nanoTime();
        long scored0 = scorer.scoredCount();
        int n = cases.length;
        double[] measured = new double[n];
        double[] weight = weights(cases);
        for (int i = 0; i < n; i++) {
            measured[i] = scorer.cases().get(cases[i]).measured();
        }
        Problem base = new Problem(cases, parameters, measured, weight);
        double[] x0 = start.clone();
        for (int j = 0; j < x0.length; j++) {
            Parameter p = parameters.get(j);
            x0[j] = Math.min(p.upper(), Math.max(p.lower(), x0[j]));
        }
        double[] p0 = base.predict(x0);
        double rms0 = rms(base.residuals(p0));
        boolean[] active = base.sensitive(x0, p0);
        int activeCount = 0;
        for (boolean a : active) {
            activeCount += a ? 1 : 0;
        }
        String note = activeCount < parameters.size() ? "no case is sensitive to " + names(parameters, active, false)
                : "";
        if (activeCount == 0 || n < activeCount) {
            String why = activeCount == 0 ? note : n + " cases for " + activeCount + " parameters";
            return new FitResult(parameters, start, x0, new boolean[parameters.size()], why, n, 0, 1,
                    scorer.scoredCount() - scored0, seconds(t0), rms0, rms0);
        }
        Bounded f = new Bounded(base, x0, active);
        LeastSquaresOptimizer.Optimum optimum = null;
        try {
            optimum = new LevenbergMarquardtOptimizer().withCostRelativeTolerance(1e-7)
                    .withParameterRelativeTolerance(1e-6).optimize(new LeastSquaresBuilder()
                            .start(f.u0()).model(f).target(new double[n]).lazyEvaluation(true)
                            .maxEvaluations(MAX_EVALUATIONS).maxIterations(MAX_EVALUATIONS).build());
        } catch (TooManyEvaluationsException | TooManyIterationsException e) {
            note = (note.isEmpty() ? "" : note + "; ") + "stopped after " + MAX_EVALUATIONS + " evaluations";
        }
        double[] x = f.best();
        double rms1 = rms(base.residuals(base.predict(x)));
        boolean[] fitted = active.clone();
        return new FitResult(parameters, start, x, fitted, note, n, optimum == null ? -1 : optimum.getIterations(),
                f.evaluations, scorer.scoredCount() - scored0, seconds(t0), rms0, rms1);
    }

    private double[] weights(int[] cases) {
        double[] w = new double[cases.length];
        Arrays.fill(w, 1.0);
        if (weighting == Weighting.SOURCE) {
            Map<String, Integer> perSource = new HashMap<>();
            for (int i : cases) {
                perSource.merge(scorer.cases().get(i).source(), 1, Integer::sum);
            }
            // w^2 = n / (sources x n_source): each source's squares sum to the same total, the mean weight stays ~1.
            for (int k = 0; k < cases.length; k++) {
                int ns = perSource.get(scorer.cases().get(cases[k]).source());
                w[k] = Math.sqrt((double) cases.length / (perSource.size() * (double) ns));
            }
        }
        return w;
    }

    private static String names(List<Parameter> ps, boolean[] mask, boolean want) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < ps.size(); i++) {
            if (mask[i] == want) {
                out.add(ps.get(i).path());
            }
        }
        return String.join(", ", out);
    }

    private static double rms(double[] r) {
        double s = 0;
        for (double v : r) {
            s += v * v;
        }
        return r.length == 0 ? 0 : Math.sqrt(s / r.length);
    }

    private static double seconds(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }

    /** The cases, their measurements and weights, and predictions for any parameter vector. */
    private final class Problem {
        final int[] cases;
        final List<Parameter> parameters;
        final double[] measured;
        final double[] weight;
        Catalogs lastCatalogs;
        double[] lastX;

        Problem(int[] cases, List<Parameter> parameters, double[] measured, double[] weight) {
            this.cases = cases;
            this.parameters = parameters;
            this.measured = measured;
            this.weight = weight;
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

        /** Per parameter: does moving it 5% of its range (inwards) move any case's relative error? */
        boolean[] sensitive(double[] x, double[] predictions) {
            boolean[] out = new boolean[x.length];
            Catalogs base = catalogs(x);
            double[] moved = new double[cases.length];
            for (int j = 0; j < x.length; j++) {
                Parameter p = parameters.get(j);
                double probe = PROBE_FRACTION * (p.upper() - p.lower());
                double[] y = x.clone();
                y[j] = x[j] + probe <= p.upper() ? x[j] + probe : x[j] - probe;
                Catalogs c = catalogs(y);
                scorer.predictChanged(base, c, cases, predictions, moved);
                for (int i = 0; i < cases.length && !out[j]; i++) {
                    double a = Double.isFinite(predictions[i]) ? predictions[i] : 0;
                    double b = Double.isFinite(moved[i]) ? moved[i] : 0;
                    out[j] = Math.abs(b - a) / measured[i] > SENSITIVITY_FLOOR;
                }
            }
            return out;
        }
    }

    /** The problem in the optimiser's unbounded variables, over the active parameters; remembers the best point. */
    private final class Bounded implements ValueAndJacobianFunction {
        final Problem problem;
        final double[] x0;
        final int[] active;
        double[] bestX;
        double bestCost = Double.POSITIVE_INFINITY;
        int evaluations;
        double[] lastU;
        double[] lastPredictions;

        Bounded(Problem problem, double[] x0, boolean[] mask) {
            this.problem = problem;
            this.x0 = x0.clone();
            int k = 0;
            for (boolean b : mask) {
                k += b ? 1 : 0;
            }
            this.active = new int[k];
            k = 0;
            for (int j = 0; j < mask.length; j++) {
                if (mask[j]) {
                    active[k++] = j;
                }
            }
            this.bestX = x0.clone();
        }

        double[] u0() {
            double[] u = new double[active.length];
            for (int k = 0; k < active.length; k++) {
                Parameter p = problem.parameters.get(active[k]);
                u[k] = BoundTransform.toUnbounded(x0[active[k]], p.lower(), p.upper());
            }
            return u;
        }

        double[] x(double[] u) {
            double[] x = x0.clone();
            for (int k = 0; k < active.length; k++) {
                Parameter p = problem.parameters.get(active[k]);
                x[active[k]] = BoundTransform.toBounded(u[k], p.lower(), p.upper());
            }
            return x;
        }

        double[] best() {
            return bestX.clone();
        }

        double[] predictions(double[] u) {
            if (lastU == null || !Arrays.equals(lastU, u)) {
                double[] x = x(u);
                lastPredictions = problem.predict(x);
                lastU = u.clone();
                evaluations++;
                double cost = 0;
                for (double r : problem.residuals(lastPredictions)) {
                    cost += r * r;
                }
                if (cost < bestCost) {
                    bestCost = cost;
                    bestX = x;
                }
            }
            return lastPredictions;
        }

        @Override
        public org.apache.commons.math3.util.Pair<RealVector, RealMatrix> value(RealVector point) {
            double[] u = point.toArray();
            return new org.apache.commons.math3.util.Pair<>(computeValue(u), computeJacobian(u));
        }

        @Override
        public RealVector computeValue(double[] u) {
            return new ArrayRealVector(problem.residuals(predictions(u)), false);
        }

        @Override
        public RealMatrix computeJacobian(double[] u) {
            double[] base = predictions(u);
            double[] x = x(u);
            Catalogs baseCatalogs = problem.catalogs(x);
            int n = problem.cases.length;
            double[][] jac = new double[n][active.length];
            double[] moved = new double[n];
            for (int k = 0; k < active.length; k++) {
                int j = active[k];
                Parameter p = problem.parameters.get(j);
                double h = STEP_FRACTION * (p.upper() - p.lower());
                double[] y = x.clone();
                y[j] = x[j] + h <= p.upper() ? x[j] + h : x[j] - h;
                double dx = y[j] - x[j];
                scorer.predictChanged(baseCatalogs, problem.catalogs(y), problem.cases, base, moved);
                double chain = BoundTransform.derivative(u[k], p.lower(), p.upper());
                for (int i = 0; i < n; i++) {
                    jac[i][k] = (problem.residual(i, moved[i]) - problem.residual(i, base[i])) / dx * chain;
                }
            }
            return new Array2DRowRealMatrix(jac, false);
        }
    }
}
