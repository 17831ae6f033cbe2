package io.ridgeline.engine.calibration;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/ACCURACY.md and catalog/intervals.csv are what the code and the dev cases give today (regenerate with
 * {@code scripts/fit-catalog --write}), and the shipped fitted constants are what catalog/fits.yaml reproduces. One
 * generation (every dev case in-sample, the recipe replayed once per fitted source) serves every check.
 */
class AccuracyDocumentTest {
    private static final Path ROOT = Path.of("..");
    private static AccuracyDocument doc;

    @BeforeAll
    static void generate() {
        doc = AccuracyDocument.generate(ROOT);
    }

    @Test
    void theCommittedAccuracyReportIsCurrent() throws Exception {
        String committed = Files.readString(ROOT.resolve("docs/ACCURACY.md"), StandardCharsets.UTF_8);
        assertEquals(committed, doc.markdown(), "docs/ACCURACY.md is stale: run scripts/fit-catalog --write");
    }

    @Test
    void theCommittedIntervalsAreCurrent() throws Exception {
        String committed = Files.readString(ROOT.resolve("engine/src/main/resources/catalog/intervals.csv"),
                StandardCharsets.UTF_8);
        assertEquals(committed, doc.intervalsCsv(), "catalog/intervals.csv is stale: run scripts/fit-catalog --write");
    }

    @Test
    void theRecipeReproducesEveryShippedFittedConstant() {
        assertTrue(doc.reproduces(), "recipe " + doc.recipe().values() + " vs the shipped catalogues: run "
                + "scripts/fit-catalog --write");
    }

    @Test
    void everyCaseHasAnInSampleAndAHeldOutOutcome() {
        assertEquals(75 + 1549 + 267 + 1431 + 94 + 1017 + 518, doc.inSample().size());
        assertEquals(doc.inSample().size(), doc.heldOut().size());
        for (int i = 0; i < doc.inSample().size(); i++) {
            assertEquals(doc.inSample().get(i).caseId(), doc.heldOut().get(i).caseId());
        }
    }

    /**
     * Issue 11: 80% intervals cover 70-90% of dev cases held out by source. Each source's cases are predicted by the
     * fit recipe replayed without the source, and scored against intervals estimated from the other sources'
     * leave-one-source-out residuals only (nothing of the source is in either). Measured: docs/ACCURACY.md,
     * "Prediction intervals".
     */
    @Test
    void eightyPercentIntervalsCoverSeventyToNinetyPercentOfHeldOutCases() {
        IntervalCoverage c = doc.strictCoverage();
        assertTrue(c.fraction() >= 0.70 && c.fraction() <= 0.90, "held-out coverage " + c.fraction());
        // Cases without an interval are not counted, so they must stay few (today: the 18 GEMM rows, whose three
        // sources leave two when one is held out).
        assertTrue(c.withoutInterval() <= 0.01 * (c.counted() + c.withoutInterval()),
                "cases without an interval: " + c.withoutInterval());
    }
}
