package io.ridgeline.engine.calibration;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Leave-one-source-out cross-validation: for each source (the case files' {@code source} column: one paper table,
 * one vendor page), fit on every other source's cases and predict this one's. The held-out errors say how the
 * fitted constants do on measurements they never saw, so over-fitting shows; a source the fit cannot do without
 * (the only one that constrains a parameter) shows as a large fold error, which is the honest answer.
 */
public final class CrossValidation {
    public static final String METHOD = "leave-one-source-out";

    /** One fold: the held-out source, its cases, their mean |error| and the fit without them. */
    public record Fold(String heldOut, int[] caseIndices, double meanAbsErrorPct, FitResult fit) {
        public Fold {
            caseIndices = caseIndices.clone();
        }

        public int cases() {
            return caseIndices.length;
        }
    }

    /**
     * All folds, and per case of the selection its held-out prediction (aligned with the case indices given).
     *
     * @param meanAbsErrorPct mean |error| over every held-out case (each case once, in the fold of its source)
     */
    public record Result(List<Fold> folds, int[] cases, double[] heldOutPredictions, double meanAbsErrorPct) {
        public Result {
            folds = List.copyOf(folds);
            cases = cases.clone();
            heldOutPredictions = heldOutPredictions.clone();
        }
    }

    private CrossValidation() {
    }

    /**
     * Runs every fold.
     *
     * @param fit   fits on a subset of cases (the same parameters, start values and fixed values as the full fit) and
     *              returns the catalogues with the fitted values
     */
    public static Result leaveOneSourceOut(CaseScorer scorer, int[] cases, Function<int[], FoldFit> fit) {
        Map<String, List<Integer>> bySource = new LinkedHashMap<>();
        for (int k = 0; k < cases.length; k++) {
            bySource.computeIfAbsent(scorer.cases().get(cases[k]).source(), s -> new ArrayList<>()).add(k);
        }
        double[] heldOut = new double[cases.length];
        List<Fold> folds = new ArrayList<>();
        double sum = 0;
        for (Map.Entry<String, List<Integer>> e : bySource.entrySet()) {
            List<Integer> positions = e.getValue();
            boolean[] out = new boolean[cases.length];
            for (int k : positions) {
                out[k] = true;
            }
            int[] train = new int[cases.length - positions.size()];
            int[] test = new int[positions.size()];
            int a = 0;
            int b = 0;
            for (int k = 0; k < cases.length; k++) {
                if (out[k]) {
                    test[b++] = cases[k];
                } else {
                    train[a++] = cases[k];
                }
            }
            FoldFit f = fit.apply(train);
            double[] predicted = new double[test.length];
            scorer.predict(f.catalogs(), test, predicted);
            double foldSum = 0;
            for (int t = 0; t < test.length; t++) {
                heldOut[positions.get(t)] = predicted[t];
                double m = scorer.cases().get(test[t]).measured();
                double err = Double.isFinite(predicted[t]) ? Math.abs(predicted[t] - m) / m * 100 : 100;
                foldSum += err;
            }
            sum += foldSum;
            folds.add(new Fold(e.getKey(), test, foldSum / test.length, f.fit()));
        }
        return new Result(folds, cases, heldOut, cases.length == 0 ? Double.NaN : sum / cases.length);
    }

    /** A fold's fit: its result (null when nothing was fitted) and the catalogues with its values. */
    public record FoldFit(FitResult fit, Catalogs catalogs) {
    }
}
