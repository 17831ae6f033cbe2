package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CatalogOverrides;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The eager host cost per kernel is identified by vTrain's launch-bound single-node rows only: a fold without them
 * keeps the start value, and its predictions of those rows carry the constant's prior; a fold without the multi-node
 * rows still identifies it and carries none.
 */
class FitUncertaintyTest {
    private static final String HOST = "stacks.megatron-lm@2021.training.host_us_per_kernel";

    @TempDir
    Path dir;

    @Test
    void aFoldThatCannotIdentifyAConstantCarriesItsPrior() throws Exception {
        Path vtrain = SyntheticCases.validationDir().resolve("cases-dev-vtrain.csv");
        // Measured = the engine's prediction with the shipped constants (host cost 37 us), 1% noise.
        Path file = SyntheticCases.write(dir, "cases-dev-vtrain.csv", vtrain,
                r -> r.string("case_id").matches("vtrain-(single-00[0-3]|multi-000)\\d"), 80, Catalogs.bundled(),
                0.01, 3);
        CaseScorer scorer = CaseScorer.read(List.of(file));
        FitRecipe recipe = FitRecipe.parse("test", """
                fits:
                  - id: host
                    description: eager host cost
                    cases:
                      files: [validation/cases-dev-vtrain.csv]
                    parameters:
                      %s:
                        start: 20
                        start_source: "assumption"
                        digits: 2
                        prior: [5, 50]
                        prior_source: "published dispatch costs"
                """.formatted(HOST));
        RecipeRun run = new RecipeRun(recipe, scorer);
        RecipeRun.Outcome full = run.run(null);
        assertTrue(full.fits().get(0).fitted(0), "the single-node rows identify the host cost");
        String single = source(scorer, "vtrain-single");
        String multi = source(scorer, "vtrain-multi");

        RecipeRun.Outcome withoutSingle = run.run(single);
        assertFalse(withoutSingle.fits().get(0).fitted(0), "the multi-node rows alone cannot");
        int[] singleCases = cases(scorer, single);
        double[] v = FitUncertainty.variances(scorer, recipe, full, withoutSingle, singleCases);
        int sensitive = 0;
        for (int k = 0; k < singleCases.length; k++) {
            double low = prediction(scorer, withoutSingle, singleCases[k], 5);
            double high = prediction(scorer, withoutSingle, singleCases[k], 50);
            // Popoviciu: a quantity that moves monotonically between ln p(5) and ln p(50) has at most a quarter of
            // the squared range as variance.
            double range = Math.log(high) - Math.log(low);
            assertTrue(v[k] >= 0 && v[k] <= range * range / 4 + 1e-15, "case " + k + ": " + v[k]);
            sensitive += v[k] > 0 ? 1 : 0;
        }
        assertTrue(sensitive > singleCases.length / 2, sensitive + " of " + singleCases.length + " launch-bound");

        // Without the multi-node rows the single-node rows still identify it: no term.
        int[] multiCases = cases(scorer, multi);
        for (double x : FitUncertainty.variances(scorer, recipe, full, run.run(multi), multiCases)) {
            assertEquals(0, x, 0);
        }
    }

    private static double prediction(CaseScorer scorer, RecipeRun.Outcome fold, int caseIndex, double hostUs) {
        Map<String, Double> values = new LinkedHashMap<>(fold.values());
        values.put(HOST, hostUs);
        return scorer.outcome(Catalogs.of(new CatalogOverrides("test", values)), caseIndex).predicted();
    }

    private static String source(CaseScorer scorer, String casePrefix) {
        for (MeasuredCase c : scorer.cases()) {
            if (c.caseId().startsWith(casePrefix)) {
                return c.source();
            }
        }
        throw new AssertionError("no case " + casePrefix);
    }

    private static int[] cases(CaseScorer scorer, String source) {
        List<Integer> out = new ArrayList<>();
        for (MeasuredCase c : scorer.cases()) {
            if (c.source().equals(source)) {
                out.add(c.index());
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }
}
