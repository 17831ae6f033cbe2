package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CatalogOverrides;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Issue 11's recovery check: cases generated from known constants (the engine's predictions with those constants,
 * times 1 + 2% Gaussian noise) are fitted back, from the shipped values, to within 2% of each constant, with the
 * ridge strength chosen by nested leave-one-source-out cross-validation as {@code calibrate} does by default.
 */
class SyntheticRecoveryTest {
    @TempDir
    Path dir;

    /** Constants away from the shipped ones (0.881, 0.79, 37 us, 0.90), inside their bounds. */
    static final Map<String, Double> TRUTH = Map.of(
            "families.ampere.gemm_peak_fraction", 0.80,
            "families.ampere.dram_fraction", 0.70,
            "stacks.megatron-deepspeed.training.host_us_per_kernel", 28.0,
            "scaleout.hdr.efficiency", 0.75);

    @Test
    void fitsKnownConstantsBackWithin2Percent() throws Exception {
        Catalogs truth = Catalogs.of(new CatalogOverrides("truth", TRUTH));
        Path v = SyntheticCases.validationDir();
        // Rows that excite each constant: A100 GEMMs (GEMM efficiency), NeMo A100 decode latency (DRAM bandwidth),
        // small single-node vTrain models (host dispatch), multi-node vTrain (scale-out collectives).
        List<Path> files = List.of(
                SyntheticCases.write(dir, "gemm.csv", v.resolve("cases-dev.csv"),
                        r -> r.raw("phase").equals("gemm") || (r.raw("phase").equals("inference")
                                && r.raw("gpu").startsWith("a100")), 1000, truth, 0.02, 1),
                SyntheticCases.write(dir, "vtrain.csv", v.resolve("cases-dev-vtrain.csv"), r -> true, 400, truth,
                        0.02, 2),
                SyntheticCases.write(dir, "multi.csv", v.resolve("cases-dev-vtrain.csv"),
                        r -> r.raw("case_id").startsWith("vtrain-multi"), 1000, truth, 0.02, 3));
        CaseScorer scorer = CaseScorer.read(files);
        List<String> paths = List.copyOf(new java.util.TreeSet<>(TRUTH.keySet()));
        Calibration.Result r = Calibration.run(scorer, new Calibration.Request(CaseSelection.ALL, paths,
                Fitter.Weighting.CASE, Fitter.Loss.LINEAR, CatalogOverrides.NONE, 0.8));
        FitResult f = r.fit();
        for (int j = 0; j < f.parameters().size(); j++) {
            String p = f.parameters().get(j).path();
            double want = TRUTH.get(p);
            assertTrue(f.fitted(j), p + " was not fitted: " + f.note());
            assertTrue(Math.abs(f.start(j) - want) / want > 0.05, p + " starts too close to the truth");
            assertEquals(want, f.value(j), 0.02 * want, p + " recovered " + f.value(j));
        }
        // The data identify every constant: the nested cross-validation must choose no shrinkage towards the
        // catalogue, for the full fit and inside every fold (a penalty would bias the recovery).
        assertEquals(0.0, f.penalty(), "ridge strength chosen on all sources");
        for (CrossValidation.Fold fold : r.crossValidation().folds()) {
            assertEquals(0.0, fold.fit().penalty(), "ridge strength chosen without " + fold.heldOut());
        }
        assertTrue(r.afterErrorPct() < r.beforeErrorPct(), "fit lowers the error");
        // With the truth recovered, what is left is the 2% noise: mean |N(0, 2%)| = 1.6%.
        assertTrue(r.afterErrorPct() < 2.0, "in-sample " + r.afterErrorPct());
    }
}
