package io.ridgeline.engine.calibration;

import io.ridgeline.engine.validation.CaseOutcome;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * docs/ACCURACY.md and catalog/intervals.csv, generated from every dev case file: per group, the in-sample error (the
 * shipped catalogues) beside the leave-one-source-out error (the fit recipe replayed without the group's sources,
 * {@link RecipeRun}); the shipped fits and whether the recipe reproduces them; interval coverage on sources held out;
 * the cases not scored, with reasons. Deterministic: the same files and code give the same bytes.
 */
public record AccuracyDocument(List<String> files, CaseScorer scorer, RecipeRun run, RecipeRun.Outcome recipe,
                               List<CaseOutcome> inSample, List<CaseOutcome> heldOut,
                               List<HeldOutResidual> residuals, IntervalModel intervals, IntervalCoverage coverage,
                               IntervalCoverage strictCoverage) {
    /** The dev files, relative to the project root, in report order. */
    public static final List<String> DEV_FILES = List.of("validation/cases-dev.csv",
            "validation/cases-dev-vtrain.csv", "validation/cases-dev-2.csv", "validation/cases-dev-3.csv",
            "validation/cases-dev-4.csv", "validation/cases-dev-5.csv", "validation/cases-dev-6.csv");

    /**
     * @param run            the bundled fit recipe, replayable per held-out source
     * @param recipe         the recipe replayed on every case: what the catalogues should ship
     * @param inSample       every case scored on the shipped catalogues
     * @param heldOut        every case scored on the recipe replayed without its source
     * @param coverage       coverage of the shipped predictions by intervals estimated without their source;
     *                       optimistic where a shipped constant was fitted on the source (its predictions are
     *                       in-sample)
     * @param strictCoverage coverage of leave-one-source-out predictions by intervals estimated without their
     *                       source: the source is new to the fits and to the intervals, as a user's cluster is (the
     *                       one issue 11 asserts)
     */
    public AccuracyDocument {
        files = List.copyOf(files);
        inSample = List.copyOf(inSample);
        heldOut = List.copyOf(heldOut);
        residuals = List.copyOf(residuals);
    }

    /** Scores every dev file under {@code root} and replays the bundled recipe. */
    public static AccuracyDocument generate(Path root) {
        return generate(root, DEV_FILES, FitRecipe.bundled());
    }

    public static AccuracyDocument generate(Path root, List<String> files, FitRecipe recipe) {
        List<Path> paths = new ArrayList<>();
        for (String f : files) {
            paths.add(root.resolve(f));
        }
        CaseScorer scorer = CaseScorer.read(paths);
        return of(files, scorer, new RecipeRun(recipe, scorer));
    }

    private static AccuracyDocument of(List<String> files, CaseScorer scorer, RecipeRun run) {
        RecipeRun.Outcome full = run.run(null);
        Catalogs shipped = Catalogs.bundled();
        Map<String, RecipeRun.Outcome> outcomes = new HashMap<>();
        for (String source : run.fittedSources()) {
            outcomes.put(source, run.run(source));
        }
        // Sources no fit uses: the recipe without them is the recipe, whose values the catalogues ship (checked below).
        Catalogs unfitted = reproduces(full) ? shipped : full.catalogs();
        List<CaseOutcome> inSample = new ArrayList<>();
        List<CaseOutcome> heldOut = new ArrayList<>();
        List<Integer> ok = new ArrayList<>();
        for (MeasuredCase c : scorer.cases()) {
            CaseOutcome in = scorer.outcome(shipped, c.index());
            inSample.add(in);
            RecipeRun.Outcome foldOutcome = outcomes.get(c.source());
            Catalogs fold = foldOutcome == null ? null : foldOutcome.catalogs();
            heldOut.add(fold == null && unfitted == shipped ? in
                    : scorer.outcome(fold == null ? unfitted : fold, c.index()));
            if (in.isOk()) {
                ok.add(c.index());
            }
        }
        int[] okCases = ok.stream().mapToInt(Integer::intValue).toArray();
        double[] predictions = new double[okCases.length];
        double[] shippedPredictions = new double[okCases.length];
        for (int k = 0; k < okCases.length; k++) {
            predictions[k] = heldOut.get(okCases[k]).predicted();
            shippedPredictions[k] = inSample.get(okCases[k]).predicted();
        }
        List<HeldOutResidual> residuals = HeldOutResidual.of(scorer, okCases, predictions,
                fitVariances(scorer, run, full, outcomes, okCases), shipped);
        IntervalModel intervals = IntervalModel.fromResiduals(residuals, IntervalModel.DEFAULT_COVERAGE);
        // Each source against intervals estimated without it: the shipped predictions (what eval prints), and the
        // stricter leave-one-source-out predictions (as if the source were new to the fits as well).
        IntervalCoverage coverage = IntervalCoverage.heldOut(residuals, HeldOutResidual.of(scorer, okCases,
                shippedPredictions, shipped), IntervalModel.DEFAULT_COVERAGE);
        IntervalCoverage strict = IntervalCoverage.heldOut(residuals, residuals, IntervalModel.DEFAULT_COVERAGE);
        return new AccuracyDocument(files, scorer, run, full, inSample, heldOut, residuals, intervals, coverage,
                strict);
    }

    /**
     * Per case of {@code okCases}, the variance its leave-one-source-out prediction carries from constants its fold
     * could not identify ({@link FitUncertainty}); 0 for the cases of sources no fit uses.
     */
    private static double[] fitVariances(CaseScorer scorer, RecipeRun run, RecipeRun.Outcome full,
                                         Map<String, RecipeRun.Outcome> outcomes, int[] okCases) {
        double[] out = new double[okCases.length];
        for (Map.Entry<String, RecipeRun.Outcome> e : outcomes.entrySet()) {
            List<Integer> at = new ArrayList<>();
            for (int k = 0; k < okCases.length; k++) {
                if (scorer.cases().get(okCases[k]).source().equals(e.getKey())) {
                    at.add(k);
                }
            }
            int[] cases = new int[at.size()];
            for (int j = 0; j < cases.length; j++) {
                cases[j] = okCases[at.get(j)];
            }
            double[] v = FitUncertainty.variances(scorer, run.recipe(), full, e.getValue(), cases);
            for (int j = 0; j < cases.length; j++) {
                out[at.get(j)] = v[j];
            }
        }
        return out;
    }

    public FitRecipe recipeDefinition() {
        return run.recipe();
    }

    /** True when every recipe value equals the shipped catalogue value. */
    public boolean reproduces() {
        return reproduces(recipe);
    }

    private static boolean reproduces(RecipeRun.Outcome full) {
        for (Map.Entry<String, Double> e : full.values().entrySet()) {
            if (Catalogs.bundled().value(e.getKey()) != e.getValue()) {
                return false;
            }
        }
        return true;
    }

    /** catalog/intervals.csv: the interval groups eval and sweeps use. */
    public String intervalsCsv() {
        StringBuilder sb = new StringBuilder();
        sb.append("# Prediction intervals: ln(predicted time / measured time) of leave-one-source-out dev cases; per group\n")
                .append("# a random-effects prediction interval over its sources at the stated coverage: center +- t_(k-2)\n")
                .append("# sqrt(between_source_sd^2 + se(center)^2 + within_source_sd^2) (engine calibration.SourceEffects).\n")
                .append("# Generated with docs/ACCURACY.md by `scripts/ridgeline validate --cases ").append(String.join(" ", files))
                .append(" --markdown docs/ACCURACY.md --intervals ...` (scripts/fit-catalog --write); do not edit.\n");
        sb.append("output,stack,family,residuals,sources,coverage,log_ratio_center,between_source_sd,within_source_sd,"
                + "log_ratio_low,log_ratio_high\n");
        for (IntervalModel.Group g : intervals.groups()) {
            sb.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%d,%.2f,%.6f,%.6f,%.6f,%.6f,%.6f%n", g.output().id(),
                    g.stack(), g.family(), g.residuals(), g.sources(), intervals.coverage(), g.logRatioCenter(),
                    g.betweenSourceSd(), g.withinSourceSd(), g.logRatioLow(), g.logRatioHigh()));
        }
        return sb.toString();
    }

    /** docs/ACCURACY.md. */
    public String markdown() {
        return new AccuracyMarkdown(this, files, scorer).render();
    }

    /** Statistics of one group: in-sample over its ok cases, and the same cases' held-out errors. */
    record Row(String label, int total, int scored, double inMean, double inMax, double outMean, double outMax) {
    }

    Row row(String label, Predicate<MeasuredCase> member) {
        int total = 0;
        int n = 0;
        double inSum = 0;
        double inMax = 0;
        double outSum = 0;
        double outMax = 0;
        for (MeasuredCase c : scorer.cases()) {
            if (!member.test(c)) {
                continue;
            }
            total++;
            CaseOutcome in = inSample.get(c.index());
            if (!in.isOk()) {
                continue;
            }
            n++;
            double e = Math.abs(in.errorPct());
            inSum += e;
            inMax = Math.max(inMax, e);
            double p = heldOut.get(c.index()).predicted();
            double o = Double.isFinite(p) ? Math.abs(p - c.measured()) / c.measured() * 100 : 100;
            outSum += o;
            outMax = Math.max(outMax, o);
        }
        return new Row(label, total, n, n == 0 ? Double.NaN : inSum / n, n == 0 ? Double.NaN : inMax,
                n == 0 ? Double.NaN : outSum / n, n == 0 ? Double.NaN : outMax);
    }

    /** One row per distinct value of a key, in first-appearance order. */
    List<Row> rows(Function<MeasuredCase, String> key) {
        Map<String, Boolean> seen = new LinkedHashMap<>();
        for (MeasuredCase c : scorer.cases()) {
            seen.put(key.apply(c), Boolean.TRUE);
        }
        List<Row> out = new ArrayList<>();
        for (String k : seen.keySet()) {
            out.add(row(k, c -> key.apply(c).equals(k)));
        }
        return out;
    }
}
