package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CatalogOverrides;
import org.apache.commons.math3.exception.TooManyEvaluationsException;
import org.apache.commons.math3.exception.TooManyIterationsException;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresBuilder;
import org.apache.commons.math3.fitting.leastsquares.LeastSquaresOptimizer;
import org.apache.commons.math3.fitting.leastsquares.LevenbergMarquardtOptimizer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Bounded least squares over catalogue constants: minimises sum_i w_i^2 ((predicted_i - measured_i) / measured_i)^2
 * over the given cases with Apache Commons Math's Levenberg-Marquardt (Moré 1978, MINPACK's lmder). Bounds by the
 * sine transform of {@link BoundTransform}. A prediction is the validation code's, with the catalogues built from the
 * candidate values ({@link Catalogs#of}); the Jacobian is by forward differences, each column re-scoring only the
 * cases whose chip, network or stack the parameter changes ({@link CaseScorer#predictChanged}).
 *
 * <p>An optional ridge penalty adds lambda n sum_j ((x_j - start_j) / range_j)^2 (one residual row per fitted
 * parameter), shrinking the fit towards the catalogue values; {@link PenaltySelection} chooses lambda by
 * cross-validation. Infinite lambda keeps the start values.
 *
 * <p>Before optimising, every parameter is moved 5% of its range: one that moves no case's relative error by
 * {@link #SENSITIVITY_FLOOR} is left at its start value (the cases say nothing about it), and so is everything when
 * fewer cases than parameters remain. A case the engine predicts nothing for counts as a 100% error.
 *
 * @param fixed              values in force that are not fitted (a loaded profile, other fits of a recipe); fitted
 *                           paths override them
 * @param identifyingSources fewest sources that must identify a parameter ({@link #IDENTIFICATION_FLOOR}) for it to
 *                           be fitted on a set of cases; 0 fits whatever some case is sensitive to
 * @param penalty            ridge strength lambda: the objective adds lambda n sum_j ((x_j - start_j) / range_j)^2,
 *                           pulling each fitted parameter towards its start value (the catalogue prior); 0 = none
 */
public record Fitter(CaseScorer scorer, CatalogOverrides fixed, Weighting weighting, Loss loss, int identifyingSources,
                     double penalty) {
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
     * {@link #ABSOLUTE} minimises the sum of |r| (the mean |error| the accuracy reports state) by iteratively
     * reweighted least squares (Schlossmacher 1973): each Levenberg-Marquardt solve weights a case's squared error by
     * 1 / max(|r|, {@link #IRLS_FLOOR}) at the previous solution, until the parameters stop moving.
     */
    public enum Loss {
        LINEAR, SOFT_L1, ABSOLUTE;

        public String id() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }

        double transform(double r) {
            if (this != SOFT_L1) {
                return r;
            }
            double z = (r / SOFT_L1_SCALE) * (r / SOFT_L1_SCALE);
            return Math.signum(r) * SOFT_L1_SCALE * Math.sqrt(2 * (Math.sqrt(1 + z) - 1));
        }
    }

    /** Relative error at which the soft-L1 loss turns from quadratic to linear (10%). */
    public static final double SOFT_L1_SCALE = 0.10;
    /** Smallest |relative error| an absolute-loss weight divides by (0.1%): keeps a case that fits exactly finite. */
    static final double IRLS_FLOOR = 1e-3;
    /**
     * Reweighted solves of the absolute loss at most; they stop earlier once no parameter moves 1e-6 of its range
     * (reweighting converges linearly: a looser stop would end short of the minimum, not near it).
     */
    static final int IRLS_ROUNDS = 100;

    /** Probe of the sensitivity check, as a fraction of the parameter's range. */
    static final double PROBE_FRACTION = 0.05;
    /** A parameter whose probe moves no case's relative error by this much is not fitted. */
    static final double SENSITIVITY_FLOOR = 1e-4;
    /**
     * A source identifies a parameter when the probe moves the source's mean |relative error| by this much (1%):
     * less is within the rounding and run-to-run spread of published benchmark figures, so the source cannot pin the
     * parameter against its own measurement noise.
     */
    public static final double IDENTIFICATION_FLOOR = 0.01;
    static final int MAX_EVALUATIONS = 150;

    /** Without an identification rule or a penalty. */
    public Fitter(CaseScorer scorer, CatalogOverrides fixed, Weighting weighting, Loss loss) {
        this(scorer, fixed, weighting, loss, 0);
    }

    /** Without a penalty. */
    public Fitter(CaseScorer scorer, CatalogOverrides fixed, Weighting weighting, Loss loss, int identifyingSources) {
        this(scorer, fixed, weighting, loss, identifyingSources, 0);
    }

    /** The same fitter with another ridge strength. */
    public Fitter withPenalty(double lambda) {
        return new Fitter(scorer, fixed, weighting, loss, identifyingSources, lambda);
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
        double[] x0 = start.clone();
        for (int j = 0; j < x0.length; j++) {
            Parameter p = parameters.get(j);
            x0[j] = Math.min(p.upper(), Math.max(p.lower(), x0[j]));
        }
        FitProblem base = new FitProblem(scorer, fixed, loss, cases, parameters, measured, weight.clone(), x0,
                Double.isInfinite(penalty) ? 0 : penalty);
        double[] p0 = base.predict(x0);
        double rms0 = rms(base.residuals(p0));
        FitProblem.Sensitivity sensitivity = base.sensitivity(x0, p0);
        boolean[] active = sensitivity.any().clone();
        boolean[] unidentified = new boolean[active.length];
        for (int j = 0; j < active.length; j++) {
            unidentified[j] = active[j] && sensitivity.sources()[j] < identifyingSources;
            active[j] &= !unidentified[j];
        }
        int activeCount = 0;
        for (boolean a : active) {
            activeCount += a ? 1 : 0;
        }
        boolean[] insensitive = new boolean[active.length];
        for (int j = 0; j < active.length; j++) {
            insensitive[j] = !sensitivity.any()[j];
        }
        String note = join(contains(insensitive) ? "no case is sensitive to " + names(parameters, insensitive, true)
                : "", contains(unidentified) ? "identified by fewer than " + identifyingSources + " sources: "
                + names(parameters, unidentified, true) : "");
        if (activeCount == 0 || n < activeCount || Double.isInfinite(penalty)) {
            String why = activeCount == 0 ? note : n < activeCount ? n + " cases for " + activeCount + " parameters"
                    : "infinite penalty: the start values are kept";
            return new FitResult(parameters, start, x0, new boolean[parameters.size()], why, n, 0, 1,
                    scorer.scoredCount() - scored0, seconds(t0), rms0, rms0, penalty);
        }
        BoundedFit f = new BoundedFit(base, x0, active);
        note = join(note, optimise(f));
        if (loss == Loss.ABSOLUTE) {
            note = join(note, reweight(base, f, active));
        }
        double[] x = f.best();
        System.arraycopy(weight, 0, base.weight, 0, n);
        double rms1 = rms(base.residuals(base.predict(x)));
        boolean[] fitted = active.clone();
        return new FitResult(parameters, start, x, fitted, note, n, f.iterations, f.evaluations,
                scorer.scoredCount() - scored0, seconds(t0), rms0, rms1, penalty);
    }

    /** One Levenberg-Marquardt solve from f's start; "" or why it stopped early. */
    private static String optimise(BoundedFit f) {
        try {
            LeastSquaresOptimizer.Optimum optimum = new LevenbergMarquardtOptimizer().withCostRelativeTolerance(1e-7)
                    .withParameterRelativeTolerance(1e-6).optimize(new LeastSquaresBuilder()
                            .start(f.u0()).model(f).target(new double[f.rows()]).lazyEvaluation(true)
                            .maxEvaluations(MAX_EVALUATIONS).maxIterations(MAX_EVALUATIONS).build());
            f.iterations += optimum.getIterations();
            return "";
        } catch (TooManyEvaluationsException | TooManyIterationsException e) {
            return "stopped after " + MAX_EVALUATIONS + " evaluations";
        }
    }

    /**
     * The absolute loss: re-solves with weights 1 / sqrt(max(|r|, floor)) on the case residuals of the last solution
     * (so a squared weighted residual is |r|) until no parameter moves 1e-6 of its range; f ends at the solution.
     */
    private static String reweight(FitProblem base, BoundedFit f, boolean[] active) {
        double[] caseWeight = base.weight.clone();
        // Restored by fit() after the last solve.
        String note = "";
        int round = 0;
        for (; round < IRLS_ROUNDS; round++) {
            double[] x = f.best();
            double[] p = base.predict(x);
            for (int i = 0; i < p.length; i++) {
                double r = Double.isFinite(p[i]) ? (p[i] - base.measured[i]) / base.measured[i] : 1.0;
                base.weight[i] = caseWeight[i] / Math.sqrt(Math.max(Math.abs(r), IRLS_FLOOR));
            }
            BoundedFit g = new BoundedFit(base, x, active);
            note = optimise(g);
            f.adopt(g);
            double[] y = f.best();
            boolean moved = false;
            for (int j = 0; j < y.length; j++) {
                Parameter q = base.parameters.get(j);
                moved |= Math.abs(y[j] - x[j]) > 1e-6 * (q.upper() - q.lower());
            }
            if (!moved) {
                break;
            }
        }
        return round == IRLS_ROUNDS ? join(note, "absolute loss: " + IRLS_ROUNDS + " reweighted solves") : note;
    }

    private static boolean contains(boolean[] mask) {
        for (boolean b : mask) {
            if (b) {
                return true;
            }
        }
        return false;
    }

    private static String join(String a, String b) {
        return a.isEmpty() ? b : b.isEmpty() ? a : a + "; " + b;
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
}
