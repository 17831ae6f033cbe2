package io.ridgeline.engine.calibration;

import org.apache.commons.math3.fitting.leastsquares.ValueAndJacobianFunction;
import org.apache.commons.math3.linear.Array2DRowRealMatrix;
import org.apache.commons.math3.linear.ArrayRealVector;
import org.apache.commons.math3.linear.RealMatrix;
import org.apache.commons.math3.linear.RealVector;

import java.util.Arrays;

/** The problem in the optimiser's unbounded variables, over the active parameters; remembers the best point. */
final class BoundedFit implements ValueAndJacobianFunction {
    final FitProblem problem;
    final double[] x0;
    final int[] active;
    double[] bestX;
    double bestCost = Double.POSITIVE_INFINITY;
    int evaluations;
    int iterations;
    double[] lastU;
    double[] lastPredictions;

    BoundedFit(FitProblem problem, double[] x0, boolean[] mask) {
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

    /** Takes a later solve's solution and adds its work to this one's counts. */
    void adopt(BoundedFit later) {
        bestX = later.best();
        evaluations += later.evaluations;
        iterations += later.iterations;
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
            for (int j : active) {
                double r = problem.penalty(j, x[j]);
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

    /** Rows of the residual vector: one per case, then one ridge row per active parameter. */
    int rows() {
        return problem.cases.length + (problem.penaltyRoot > 0 ? active.length : 0);
    }

    @Override
    public RealVector computeValue(double[] u) {
        double[] r = Arrays.copyOf(problem.residuals(predictions(u)), rows());
        double[] x = x(u);
        for (int k = problem.cases.length; k < r.length; k++) {
            int j = active[k - problem.cases.length];
            r[k] = problem.penalty(j, x[j]);
        }
        return new ArrayRealVector(r, false);
    }

    @Override
    public RealMatrix computeJacobian(double[] u) {
        double[] base = predictions(u);
        double[] x = x(u);
        Catalogs baseCatalogs = problem.catalogs(x);
        int n = problem.cases.length;
        double[][] jac = new double[rows()][active.length];
        double[] moved = new double[n];
        for (int k = 0; k < active.length; k++) {
            int j = active[k];
            Parameter p = problem.parameters.get(j);
            double h = p.stepFraction() * (p.upper() - p.lower());
            double[] y = x.clone();
            y[j] = x[j] + h <= p.upper() ? x[j] + h : x[j] - h;
            double dx = y[j] - x[j];
            problem.scorer().predictChanged(baseCatalogs, problem.catalogs(y), problem.cases, base, moved);
            double chain = BoundTransform.derivative(u[k], p.lower(), p.upper());
            for (int i = 0; i < n; i++) {
                jac[i][k] = (problem.residual(i, moved[i]) - problem.residual(i, base[i])) / dx * chain;
            }
            // d(penalty row k)/du_k, exact: the row is linear in x.
            if (jac.length > n) {
                jac[n + k][k] = problem.penaltyRoot / (p.upper() - p.lower()) * chain;
            }
        }
        return new Array2DRowRealMatrix(jac, false);
    }
}
