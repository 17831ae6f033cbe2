package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CatalogOverrides;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The absolute loss minimises the mean |relative error| (what the accuracy reports state), not its square; the
 * identification rule leaves a parameter that only one source moves at its start value.
 */
class FitterLossTest {
    private static final String PATH = "families.ampere.gemm_peak_fraction";

    private static double meanAbsErrorPct(CaseScorer s, int[] cases, double value) {
        return Calibration.meanAbsErrorPct(s, Catalogs.of(new CatalogOverrides("test", Map.of(PATH, value))), cases);
    }

    @Test
    void theAbsoluteLossEndsAtAMinimumOfTheMeanAbsoluteError() {
        CaseScorer s = CaseScorer.read(List.of(Path.of("../validation/cases-dev.csv")));
        int[] gemm = s.select(new CaseSelection(List.of("a100-80g", "a100-40g"), List.of(), List.of("gemm"),
                List.of()));
        Parameter p = ParameterRegistry.parameter(PATH, Catalogs.bundled(), "test", "parameters");
        FitResult abs = new Fitter(s, CatalogOverrides.NONE, Fitter.Weighting.CASE, Fitter.Loss.ABSOLUTE)
                .fit(gemm, List.of(p), new double[]{0.8});
        FitResult squares = new Fitter(s, CatalogOverrides.NONE, Fitter.Weighting.CASE, Fitter.Loss.LINEAR)
                .fit(gemm, List.of(p), new double[]{0.8});
        assertTrue(abs.fitted(0), abs.note());
        assertEquals("", abs.note());
        double x = abs.value(0);
        double at = meanAbsErrorPct(s, gemm, x);
        // A minimum: both neighbours 0.2% of the range away are no better, and neither is least squares' value.
        assertTrue(at <= meanAbsErrorPct(s, gemm, x - 0.0014) + 1e-9, "below " + x);
        assertTrue(at <= meanAbsErrorPct(s, gemm, x + 0.0014) + 1e-9, "above " + x);
        assertTrue(at <= meanAbsErrorPct(s, gemm, squares.value(0)) + 1e-9);
        assertNotEquals(squares.value(0), x, 1e-4, "the two losses weigh the GEMM rows differently");
    }

    @Test
    void aParameterOnlyOneSourceIdentifiesIsNotFittedWhenTwoAreRequired() {
        CaseScorer s = CaseScorer.read(List.of(Path.of("../validation/cases-dev.csv")));
        int[] gemm = s.select(new CaseSelection(List.of("a100-80g", "a100-40g"), List.of(), List.of("gemm"),
                List.of()));
        // Azure's cuBLASLt sweep (8 shapes) and ml-engineering's one MAMF maximum: both move with the sustained peak;
        // the per-tile overhead moves only the small shapes, which are Azure's.
        Catalogs c = Catalogs.bundled();
        List<Parameter> ps = List.of(ParameterRegistry.parameter(PATH, c, "test", "p"),
                ParameterRegistry.parameter("families.ampere.tile_overhead_cycles", c, "test", "p"));
        double[] start = {0.8, 2000};
        FitResult two = new Fitter(s, CatalogOverrides.NONE, Fitter.Weighting.CASE, Fitter.Loss.LINEAR, 2)
                .fit(gemm, ps, start);
        assertTrue(two.fitted(0));
        assertTrue(!two.fitted(1) && two.value(1) == 2000, two.note());
        assertTrue(two.note().contains("identified by fewer than 2 sources: families.ampere.tile_overhead_cycles"),
                two.note());
        FitResult any = new Fitter(s, CatalogOverrides.NONE, Fitter.Weighting.CASE, Fitter.Loss.LINEAR)
                .fit(gemm, ps, start);
        assertTrue(any.fitted(0) && any.fitted(1), any.note());
    }

    private static int[] a100Gemm(CaseScorer s) {
        return s.select(new CaseSelection(List.of("a100-80g", "a100-40g"), List.of(), List.of("gemm"), List.of()));
    }

    @Test
    void theRidgePenaltyPullsTheFitTowardsItsStartValueAndInfinityKeepsIt() {
        CaseScorer s = CaseScorer.read(List.of(Path.of("../validation/cases-dev.csv")));
        int[] gemm = a100Gemm(s);
        Parameter p = ParameterRegistry.parameter(PATH, Catalogs.bundled(), "test", "parameters");
        double start = 0.6;
        double[] lambdas = {0, 0.1, 1, 10};
        double[] moved = new double[lambdas.length];
        for (int k = 0; k < lambdas.length; k++) {
            FitResult f = new Fitter(s, CatalogOverrides.NONE, Fitter.Weighting.CASE, Fitter.Loss.LINEAR, 0,
                    lambdas[k]).fit(gemm, List.of(p), new double[]{start});
            assertTrue(f.fitted(0), f.note());
            assertEquals(lambdas[k], f.penalty());
            moved[k] = f.value(0) - start;
        }
        FitResult plain = new Fitter(s, CatalogOverrides.NONE, Fitter.Weighting.CASE, Fitter.Loss.LINEAR)
                .fit(gemm, List.of(p), new double[]{start});
        assertEquals(plain.value(0) - start, moved[0], 1e-12, "lambda 0 is the unpenalised fit");
        // The GEMM rows want ~0.88; every stronger penalty stops nearer the start, still on the data's side.
        assertTrue(moved[0] > 0.2, "the data move the value: " + moved[0]);
        for (int k = 1; k < lambdas.length; k++) {
            assertTrue(moved[k] > 0 && moved[k] < moved[k - 1] - 1e-4, "lambda " + lambdas[k] + ": " + moved[k]);
        }
        FitResult kept = new Fitter(s, CatalogOverrides.NONE, Fitter.Weighting.CASE, Fitter.Loss.LINEAR, 0,
                Double.POSITIVE_INFINITY).fit(gemm, List.of(p), new double[]{start});
        assertTrue(!kept.fitted(0) && kept.value(0) == start, kept.note());
    }
}
