package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CatalogOverrides;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Chooses the ridge strength lambda of a fit ({@link Fitter}'s penalty towards the catalogue values) by
 * leave-one-source-out cross-validation on the fit's own cases (Hastie, Tibshirani &amp; Friedman, ESL sec. 3.4.1
 * and 7.10). Inside an outer cross-validation fold this is nested cross-validation: the choice sees only the fold's
 * training sources, so the outer score includes it (ESL sec. 7.10.2). The grid ends at infinity, the catalogue values
 * themselves: when no fitted set predicts the held-out sources better than the catalogue, the fit keeps the catalogue.
 *
 * <p>Fits are memoised by (sources held out, lambda): the fit without sources {s, t} serves outer fold s's inner fold
 * t and outer fold t's inner fold s, so a calibration on S sources runs at most (1 + S + S(S-1)/2) fits per finite
 * lambda.
 */
final class PenaltySelection {
    /**
     * Ridge strengths tried, per case (the penalty of a parameter moved a fraction d of its range is lambda d^2 per
     * case, against a mean squared relative error of about 0.01-0.04 on the dev cases): none, light (a 10%-of-range
     * move costs 0.001 per case), medium, strong, and the catalogue itself.
     */
    static final double[] GRID = {0, 0.1, 1, 10, Double.POSITIVE_INFINITY};

    /**
     * @param lambda        the chosen strength
     * @param grid          the strengths tried
     * @param innerErrorPct per strength, mean |error| over the cases of each inner held-out source (NaN: not scored)
     */
    record Choice(double lambda, double[] grid, double[] innerErrorPct) {
        Choice {
            grid = grid.clone();
            innerErrorPct = innerErrorPct.clone();
        }
    }

    private final CaseScorer scorer;
    private final int[] cases;
    private final Fitter fitter;
    private final List<Parameter> parameters;
    private final double[] start;
    private final CatalogOverrides base;
    private final double[] grid;
    private final Catalogs prior;
    private final Map<String, FitResult> fits = new HashMap<>();
    private final Map<String, Catalogs> catalogs = new HashMap<>();

    PenaltySelection(CaseScorer scorer, int[] cases, Fitter fitter, List<Parameter> parameters, double[] start,
                     CatalogOverrides base, double[] grid) {
        this.scorer = scorer;
        this.cases = cases.clone();
        this.fitter = fitter;
        this.parameters = List.copyOf(parameters);
        this.start = start.clone();
        this.base = base;
        this.grid = grid.clone();
        this.prior = Catalogs.of(base);
    }

    /** The sources of the cases not held out, in case order. */
    Set<String> sources(Set<String> heldOut) {
        Set<String> out = sourcesOf(cases);
        out.removeAll(heldOut);
        return out;
    }

    /** The sources of the given cases that are missing from {@code train}: what a fold holds out. */
    Set<String> heldOut(int[] train) {
        Set<String> out = new TreeSet<>(sourcesOf(cases));
        out.removeAll(sourcesOf(train));
        return out;
    }

    private Set<String> sourcesOf(int[] indices) {
        Set<String> out = new LinkedHashSet<>();
        for (int i : indices) {
            out.add(scorer.cases().get(i).source());
        }
        return out;
    }

    /** The fit without the held-out sources' cases at strength lambda (memoised). */
    FitResult fit(Set<String> heldOut, double lambda) {
        return fits.computeIfAbsent(key(heldOut, lambda), k -> fitter.withPenalty(lambda).fit(train(heldOut),
                parameters, start));
    }

    /** The catalogues of {@link #fit}; at infinite lambda the catalogue values in force, without fitting. */
    Catalogs catalogs(Set<String> heldOut, double lambda) {
        if (Double.isInfinite(lambda)) {
            return prior;
        }
        return catalogs.computeIfAbsent(key(heldOut, lambda), k -> Calibration.catalogs(base, fit(heldOut, lambda),
                "penalised fit"));
    }

    /**
     * The strength whose fits, each without one more source, predict that source best (mean |error| over the cases),
     * by the one-standard-error rule ({@link OneStandardErrorRule}): the strongest penalty within one standard error
     * (over the held-out sources) of the best, so a weaker one must win consistently across sources, not by a few
     * hundredths that one source carries. With fewer than two sources there is nothing to hold out: lambda = the
     * grid's smallest (the fit the user asked for, as without selection).
     */
    Choice choose(Set<String> heldOut) {
        List<String> sources = new ArrayList<>(sources(heldOut));
        double[] err = new double[grid.length];
        java.util.Arrays.fill(err, Double.NaN);
        if (sources.size() < 2 || grid.length == 1) {
            return new Choice(grid[0], grid, err);
        }
        int[] n = new int[sources.size()];
        double[][] perSource = new double[grid.length][sources.size()];
        for (int g = grid.length - 1; g >= 0; g--) {
            for (int t = 0; t < n.length; t++) {
                Set<String> out = new TreeSet<>(heldOut);
                out.add(sources.get(t));
                int[] test = cases(sources.get(t));
                n[t] = test.length;
                perSource[g][t] = Calibration.meanAbsErrorPct(scorer, catalogs(out, grid[g]), test);
            }
            err[g] = OneStandardErrorRule.pooled(perSource[g], n);
        }
        return new Choice(grid[OneStandardErrorRule.choose(perSource, n)], grid, err);
    }

    private int[] cases(String source) {
        return java.util.Arrays.stream(cases).filter(i -> scorer.cases().get(i).source().equals(source)).toArray();
    }

    private int[] train(Set<String> heldOut) {
        return java.util.Arrays.stream(cases).filter(i -> !heldOut.contains(scorer.cases().get(i).source()))
                .toArray();
    }

    private static String key(Set<String> heldOut, double lambda) {
        return lambda + "|" + new TreeSet<>(heldOut);
    }
}
