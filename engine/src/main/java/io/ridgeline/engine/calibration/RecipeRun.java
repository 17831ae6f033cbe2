package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CatalogOverrides;

import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Replays a {@link FitRecipe} on a set of cases: every recipe constant starts at its a-priori value, then the fits run
 * in file order, each with the earlier fits' (rounded) results in force, each on the ok cases of its selection minus
 * any held-out sources. The result is what the catalogue should ship ({@link #values}); replayed without a source it
 * gives that source's leave-one-source-out catalogues. Fits whose inputs repeat (same cases, same values in force)
 * are computed once.
 */
public final class RecipeRun {
    private final FitRecipe recipe;
    private final CaseScorer scorer;
    private final Map<String, FitResult> memo = new HashMap<>();

    /** One replay: the fit of every entry and the rounded values it ships. */
    public record Outcome(List<FitResult> fits, Map<String, Double> values, Catalogs catalogs) {
    }

    public RecipeRun(FitRecipe recipe, CaseScorer scorer) {
        this.recipe = recipe;
        this.scorer = scorer;
    }

    public FitRecipe recipe() {
        return recipe;
    }

    /** Replays the recipe without the cases of {@code heldOut} (a source; null for none). */
    public Outcome run(String heldOut) {
        Map<String, Double> values = new LinkedHashMap<>();
        for (FitRecipe.Entry e : recipe.entries()) {
            for (FitRecipe.RecipeParameter p : e.parameters()) {
                values.put(p.path(), p.start());
                p.tied().forEach(t -> values.put(t, p.start()));
            }
        }
        List<FitResult> fits = new ArrayList<>();
        for (FitRecipe.Entry e : recipe.entries()) {
            CatalogOverrides inForce = new CatalogOverrides("fit recipe " + e.id(), values);
            Catalogs catalogs = Catalogs.of(inForce);
            int[] cases = cases(e, catalogs, heldOut);
            List<Parameter> parameters = new ArrayList<>();
            double[] start = new double[e.parameters().size()];
            for (int j = 0; j < start.length; j++) {
                FitRecipe.RecipeParameter rp = e.parameters().get(j);
                parameters.add(ParameterRegistry.parameter(rp.path(), catalogs, recipe.source(), e.id()));
                start[j] = rp.start();
            }
            String key = e.id() + "|" + Arrays.hashCode(cases) + "|" + cases.length + "|" + values;
            FitResult fit = memo.get(key);
            if (fit == null) {
                fit = new Fitter(scorer, inForce, e.weighting(), e.loss()).fit(cases, parameters, start);
                memo.put(key, fit);
            }
            fits.add(fit);
            for (int j = 0; j < start.length; j++) {
                double v = round(fit.value(j), e.parameters().get(j).digits());
                values.put(parameters.get(j).path(), v);
                e.parameters().get(j).tied().forEach(t -> values.put(t, v));
            }
        }
        return new Outcome(fits, values, Catalogs.of(new CatalogOverrides(heldOut == null ? "fit recipe"
                : "fit recipe without " + heldOut, values)));
    }

    /** The ok cases of an entry's files and selection, without a held-out source. */
    int[] cases(FitRecipe.Entry e, Catalogs catalogs, String heldOut) {
        Set<String> files = new java.util.HashSet<>();
        for (String f : e.files()) {
            files.add(Path.of(f).getFileName().toString());
        }
        List<Integer> out = new ArrayList<>();
        for (MeasuredCase c : scorer.cases()) {
            if (files.contains(c.file()) && e.selection().matches(c) && !c.source().equals(heldOut)
                    && scorer.outcome(catalogs, c.index()).isOk()) {
                out.add(c.index());
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /** The sources whose cases any entry fits on (holding out any other source changes nothing). */
    public Set<String> fittedSources() {
        Set<String> out = new java.util.LinkedHashSet<>();
        Catalogs c = Catalogs.bundled();
        for (FitRecipe.Entry e : recipe.entries()) {
            for (int i : cases(e, c, null)) {
                out.add(scorer.cases().get(i).source());
            }
        }
        return out;
    }

    /** A value rounded to significant digits, as the catalogue ships it. */
    public static double round(double v, int digits) {
        return new BigDecimal(v).round(new MathContext(digits)).doubleValue();
    }

    /** The shipped text of a value: significant digits, no trailing zeros, no exponent. */
    public static String text(double v, int digits) {
        return new BigDecimal(v).round(new MathContext(digits)).stripTrailingZeros().toPlainString();
    }
}
