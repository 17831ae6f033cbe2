package io.ridgeline.engine.validation;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The accuracy gate of issue 2 on the dev cases of validation/ (docs/ACCURACY.md has the full table). */
class ValidationThresholdsTest {
    private static List<CaseOutcome> outcomes;

    static Path validationDir() {
        Path dir = Path.of(System.getProperty("ridgeline.validation.dir", "../validation"));
        assertTrue(Files.isDirectory(dir), "validation data not found at " + dir.toAbsolutePath());
        return dir;
    }

    @BeforeAll
    static void score() {
        Path dir = validationDir();
        outcomes = new Validator().run(List.of(dir.resolve("cases-dev.csv"), dir.resolve("cases-dev-vtrain.csv")));
    }

    private static ValidationSummary.Group stats(Predicate<CaseOutcome> which) {
        List<CaseOutcome> selected = outcomes.stream().filter(which).toList();
        assertTrue(selected.stream().allMatch(CaseOutcome::isOk), "every selected case must be scored: "
                + selected.stream().filter(o -> !o.isOk()).map(o -> o.caseId() + " " + o.reason()).toList());
        return ValidationSummary.stats("selection", selected);
    }

    @Test
    void korthikantiTable5() {
        ValidationSummary.Group g = stats(o -> o.source().contains("Table 5") && o.phase().equals("training"));
        assertEquals(8, g.count());
        assertTrue(g.meanAbsErrorPct() <= 3.0, "mean " + g.meanAbsErrorPct());
        assertTrue(g.maxAbsErrorPct() <= 7.0, "max " + g.maxAbsErrorPct());
    }

    @Test
    void narayananTable1() {
        ValidationSummary.Group g = stats(o -> o.source().startsWith("Narayanan"));
        assertEquals(10, g.count());
        assertTrue(g.meanAbsErrorPct() <= 6.0, "mean " + g.meanAbsErrorPct());
    }

    @Test
    void vTrainMultiNode() {
        ValidationSummary.Group g = stats(o -> o.caseId().startsWith("vtrain-multi"));
        assertEquals(109, g.count());
        assertTrue(g.meanAbsErrorPct() <= 10.0, "mean " + g.meanAbsErrorPct());
    }

    @Test
    void vTrainSingleNode() {
        ValidationSummary.Group g = stats(o -> o.caseId().startsWith("vtrain-single"));
        assertEquals(1440, g.count());
        assertTrue(g.meanAbsErrorPct() <= 10.0, "mean " + g.meanAbsErrorPct());
    }

    @Test
    void memoryRowsReproduceKorthikantiAccounting() {
        ValidationSummary.Group g = stats(o -> o.phase().equals("memory"));
        assertEquals(16, g.count());
        assertTrue(g.meanAbsErrorPct() <= 2.0, "mean " + g.meanAbsErrorPct());
    }

    @Test
    void a100Gemms() {
        ValidationSummary.Group g = stats(o -> o.phase().equals("gemm"));
        assertEquals(9, g.count());
        assertTrue(g.meanAbsErrorPct() <= 8.0, "mean " + g.meanAbsErrorPct());
    }

    @Test
    void noCaseIsDroppedSilently() {
        assertEquals(75 + 1549, outcomes.size());
        for (CaseOutcome o : outcomes) {
            if (!o.isOk()) {
                assertTrue(!o.reason().isBlank(), o.caseId() + " has no reason");
            }
        }
    }
}
