package io.ridgeline.engine.calibration;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.spec.CatalogOverrides;
import io.ridgeline.engine.validation.CaseOutcome;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code ridgeline calibrate} does: select the cases, fit the parameters on all of them, cross-validate by
 * leaving each source out, and derive prediction intervals from the held-out residuals.
 *
 * <p>Only cases the engine scores "ok" with the constants in force take part; the others (unsupported, or judged
 * infeasible although they ran) are listed with their reason, because a time fitted on a configuration the model says
 * cannot run would fit the wrong thing.
 */
public final class Calibration {
    /**
     * Sources that must identify a default parameter: with one, the parameter would be fitted to that source's own
     * error (a mechanism the model lacks there), which a fold holding the source out cannot check.
     */
    public static final int DEFAULT_IDENTIFYING_SOURCES = 2;

    private Calibration() {
    }

    /**
     * @param parameters catalogue paths to fit; empty = every parameter declared {@code fittedByDefault} for the chip
     *                   families, networks and stacks the selected cases use
     * @param base       values in force before the fit (a profile being refined; usually none)
     * @param penalties  ridge strengths towards the catalogue values ({@link Fitter}); more than one: chosen by
     *                   leave-one-source-out cross-validation on the fitted cases ({@link PenaltySelection}), nested
     *                   inside every cross-validation fold
     */
    public record Request(CaseSelection selection, List<String> parameters, Fitter.Weighting weighting,
                          Fitter.Loss loss, CatalogOverrides base, double coverage, double[] penalties) {
        public Request {
            parameters = List.copyOf(parameters);
            penalties = penalties.clone();
            if (penalties.length == 0) {
                throw new IllegalArgumentException("no penalty strength");
            }
        }

        /** The default: the ridge strength chosen from {@link #PENALTY_GRID}. */
        public Request(CaseSelection selection, List<String> parameters, Fitter.Weighting weighting, Fitter.Loss loss,
                       CatalogOverrides base, double coverage) {
            this(selection, parameters, weighting, loss, base, coverage, PENALTY_GRID);
        }
    }

    /** The ridge strengths {@code calibrate} chooses from by default ({@link PenaltySelection#GRID}). */
    public static final double[] PENALTY_GRID = PenaltySelection.GRID.clone();

    /**
     * @param before         the catalogues in force
     * @param after          the catalogues with the fitted values
     * @param cases          the cases fitted on (scored ok before the fit)
     * @param excluded       selected cases that were not scored ok before the fit, with their outcome
     * @param beforeErrorPct mean |error| of {@code cases} before the fit
     * @param afterErrorPct  mean |error| of {@code cases} after the fit (in-sample)
     * @param penaltyErrorPct per strength of {@code request.penalties()}, the leave-one-source-out mean |error| of the
     *                        fits on every case that chose the full fit's strength (NaN: not scored)
     */
    public record Result(Request request, Catalogs before, Catalogs after, FitResult fit, int[] cases,
                         List<CaseOutcome> excluded, double beforeErrorPct, double afterErrorPct,
                         CrossValidation.Result crossValidation, IntervalModel intervals, double[] penaltyErrorPct) {
    }

    public static Result run(CaseScorer scorer, Request request) {
        Catalogs before = Catalogs.of(request.base());
        List<Integer> ok = new ArrayList<>();
        List<CaseOutcome> excluded = new ArrayList<>();
        for (int i : scorer.select(request.selection())) {
            CaseOutcome o = scorer.outcome(before, i);
            if (o.isOk()) {
                ok.add(i);
            } else {
                excluded.add(o);
            }
        }
        int[] cases = ok.stream().mapToInt(Integer::intValue).toArray();
        List<Parameter> parameters = new ArrayList<>();
        List<String> paths = request.parameters().isEmpty() ? defaultParameters(scorer, cases, before)
                : request.parameters();
        for (String p : paths) {
            parameters.add(ParameterRegistry.parameter(p, before, "--parameters", "parameters"));
        }
        double[] start = new double[parameters.size()];
        for (int j = 0; j < start.length; j++) {
            start[j] = before.value(parameters.get(j).path());
        }
        // Parameters chosen by default must each be identified by two sources (Fitter.IDENTIFICATION_FLOOR); the rule
        // runs inside every fold too, so the cross-validation scores the whole procedure, selection included
        // (Hastie, Tibshirani & Friedman, Elements of Statistical Learning, sec. 7.10.2). Named parameters are fitted
        // whenever a case is sensitive to them: the user asked for them.
        int identifying = request.parameters().isEmpty() ? DEFAULT_IDENTIFYING_SOURCES : 0;
        Fitter fitter = new Fitter(scorer, request.base(), request.weighting(), request.loss(), identifying);
        // The ridge strength is chosen on the fit's own sources, and again inside every fold on the fold's training
        // sources only, so the cross-validation scores the whole procedure (ESL sec. 7.10.2).
        PenaltySelection penalties = new PenaltySelection(scorer, cases, fitter, parameters, start, request.base(),
                request.penalties());
        PenaltySelection.Choice choice = penalties.choose(Set.of());
        FitResult fit = penalties.fit(Set.of(), choice.lambda());
        Catalogs after = catalogs(request.base(), fit, "calibrate");
        CrossValidation.Result cv = CrossValidation.leaveOneSourceOut(scorer, cases, train -> {
            Set<String> out = penalties.heldOut(train);
            FitResult f = penalties.fit(out, penalties.choose(out).lambda());
            return new CrossValidation.FoldFit(f, catalogs(request.base(), f, "leave-one-source-out fold"));
        });
        IntervalModel intervals = IntervalModel.fromResiduals(HeldOutResidual.of(scorer, cv.cases(),
                cv.heldOutPredictions(), before), request.coverage());
        return new Result(request, before, after, fit, cases, excluded, meanAbsErrorPct(scorer, before, cases),
                meanAbsErrorPct(scorer, after, cases), cv, intervals, choice.innerErrorPct());
    }

    /** The catalogues with a fit's values on top of {@code base}. */
    public static Catalogs catalogs(CatalogOverrides base, FitResult fit, String source) {
        Map<String, Double> v = new LinkedHashMap<>(base.values());
        for (int j = 0; j < fit.parameters().size(); j++) {
            v.put(fit.parameters().get(j).path(), fit.value(j));
        }
        return Catalogs.of(new CatalogOverrides(source, v));
    }

    /** Mean |error| in percent over cases; a case without a prediction counts as 100%. */
    public static double meanAbsErrorPct(CaseScorer scorer, Catalogs catalogs, int[] cases) {
        double[] p = new double[cases.length];
        scorer.predict(catalogs, cases, p);
        double sum = 0;
        for (int k = 0; k < cases.length; k++) {
            double m = scorer.cases().get(cases[k]).measured();
            sum += Double.isFinite(p[k]) ? Math.abs(p[k] - m) / m * 100 : 100;
        }
        return cases.length == 0 ? Double.NaN : sum / cases.length;
    }

    /**
     * Every {@code fittedByDefault} parameter of the chip families, scale-out networks and (for training cases)
     * stacks these cases use; the fit itself drops the ones no case is sensitive to or fewer than
     * {@link #DEFAULT_IDENTIFYING_SOURCES} sources identify.
     */
    static List<String> defaultParameters(CaseScorer scorer, int[] cases, Catalogs catalogs) {
        Set<String> families = new LinkedHashSet<>();
        Set<String> networks = new LinkedHashSet<>();
        Set<String> stacks = new LinkedHashSet<>();
        HardwareCatalog hw = catalogs.hardware();
        for (int i : cases) {
            MeasuredCase c = scorer.cases().get(i);
            if (hw.hasChip(c.gpu())) {
                families.add(hw.chip(c.gpu()).family().name());
                networks.add(hw.defaultNetwork(hw.chip(c.gpu())).id());
            }
            if (!c.framework().isEmpty()) {
                try {
                    stacks.add(catalogs.stacks().resolve(c.framework(), "framework").profile().id());
                } catch (io.ridgeline.engine.spec.InvalidInputException e) {
                    // an unknown framework: the case is unscored, nothing of a stack to fit for it
                }
            }
        }
        List<String> out = new ArrayList<>();
        for (ParameterKind k : ParameterRegistry.KINDS) {
            if (!k.fittedByDefault()) {
                continue;
            }
            Set<String> entries = switch (k.catalogue()) {
                case "families" -> families;
                case "scaleout" -> networks;
                default -> stacks;
            };
            for (String e : entries) {
                if (catalogs.values().containsKey(k.path(e))) {
                    out.add(k.path(e));
                }
            }
        }
        return out;
    }
}
