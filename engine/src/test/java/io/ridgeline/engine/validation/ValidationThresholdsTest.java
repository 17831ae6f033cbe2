package io.ridgeline.engine.validation;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.ridgeline.engine.spec.CsvTable;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The accuracy gate on the dev cases of validation/ (docs/ACCURACY.md has the full table): issue 2's targets on the
 * 2021-22 Megatron rows, and issue 9's on today's stacks (cases-dev-2.csv) where they are met (docs/MODEL.md sec. 9
 * lists the groups still above target: megatron-bridge@25.11, nemo@24.07), extended to the unseen runs of
 * cases-dev-3.csv, cases-dev-4.csv and cases-dev-5.csv for what a run that ran must get (scored, not called infeasible).
 */
class ValidationThresholdsTest {
    private static List<CaseOutcome> outcomes;

    static Path validationDir() {
        Path dir = Path.of(System.getProperty("ridgeline.validation.dir", "../validation"));
        assertTrue(Files.isDirectory(dir), "validation data not found at " + dir.toAbsolutePath());
        return dir;
    }

    private static List<CaseOutcome> today;
    private static List<CaseOutcome> unseen;
    private static List<CaseOutcome> unseenFour;
    private static List<CaseOutcome> unseenFive;
    private static Map<String, String> frameworks;

    @BeforeAll
    static void score() {
        Path dir = validationDir();
        Validator v = new Validator();
        outcomes = v.run(List.of(dir.resolve("cases-dev.csv"), dir.resolve("cases-dev-vtrain.csv")));
        today = v.run(List.of(dir.resolve("cases-dev-2.csv")));
        unseen = v.run(List.of(dir.resolve("cases-dev-3.csv"))).stream().filter(o -> o.phase().equals("training"))
                .toList();
        unseenFour = v.run(List.of(dir.resolve("cases-dev-4.csv"))).stream()
                .filter(o -> o.phase().equals("training")).toList();
        unseenFive = v.run(List.of(dir.resolve("cases-dev-5.csv"))).stream()
                .filter(o -> o.phase().equals("training")).toList();
        frameworks = new HashMap<>();
        for (String f : List.of("cases-dev-2.csv", "cases-dev-3.csv")) {
            for (CsvTable.Row r : CsvTable.read(dir.resolve(f)).rows()) {
                frameworks.put(r.string("case_id"), r.stringOr("framework", ""));
            }
        }
    }

    /** Training rows of cases-dev-2.csv from one framework. */
    private static List<CaseOutcome> todayTraining(String framework) {
        return today.stream().filter(o -> o.phase().equals("training")
                && frameworks.get(o.caseId()).equals(framework)).toList();
    }

    /** Issue 9: each group at least 80% scored, mean |error| of the scored rows within the target. */
    private static void assertGroup(String framework, int rows, double meanTarget) {
        List<CaseOutcome> g = todayTraining(framework);
        assertEquals(rows, g.size(), framework);
        ValidationSummary.Group s = ValidationSummary.stats(framework, g);
        assertTrue(s.count() >= 0.8 * rows, framework + ": scored " + s.count() + " of " + rows);
        assertTrue(s.meanAbsErrorPct() <= meanTarget, framework + ": mean " + s.meanAbsErrorPct());
    }

    @Test
    void llmFoundryFsdpOnA100() {
        assertGroup("llm-foundry", 139, 10.0);
    }

    @Test
    void deepSpeedZero3AtScale() {
        assertGroup("deepspeed@2021", 6, 15.0);
    }

    @Test
    void everyTodayGroupIsMostlyScoredAndUnscoredRowsNameTheirField() {
        for (String f : List.of("llm-foundry", "megatron-bridge@25.11", "nemo@24.07", "deepspeed@2021")) {
            List<CaseOutcome> g = todayTraining(f);
            long scored = g.stream().filter(CaseOutcome::isOk).count();
            assertTrue(scored >= 0.8 * g.size(), f + ": scored " + scored + " of " + g.size());
            for (CaseOutcome o : g) {
                if (o.status().equals("unsupported")) {
                    assertTrue(o.reason().matches("(?s).*[a-z_]+: expected.*"), o.caseId() + ": " + o.reason());
                }
            }
        }
    }

    @Test
    void allTodayGroupsTogetherWithinTenPercent() {
        List<CaseOutcome> training = today.stream().filter(o -> o.phase().equals("training")).toList();
        assertEquals(188, training.size());
        ValidationSummary.Group s = ValidationSummary.stats("all", training);
        assertTrue(s.meanAbsErrorPct() <= 10.0, "mean " + s.meanAbsErrorPct());
    }

    @Test
    void everyUnseenGroupIsMostlyScoredAndNoRunIsRejectedForItsShape() {
        assertEquals(217, unseen.size());
        Map<String, List<CaseOutcome>> groups = new HashMap<>();
        for (CaseOutcome o : unseen) {
            groups.computeIfAbsent(frameworks.get(o.caseId()), k -> new ArrayList<>()).add(o);
            assertTrue(!o.reason().startsWith("plan_shape"), o.caseId() + ": " + o.reason());
        }
        for (Map.Entry<String, List<CaseOutcome>> g : groups.entrySet()) {
            long scored = g.getValue().stream().filter(CaseOutcome::isOk).count();
            assertTrue(scored >= 0.8 * g.getValue().size(), g.getKey() + ": scored " + scored);
        }
    }

    @Test
    void atMostTwoPercentOfMeasuredTrainingRunsAreCalledInfeasible() {
        List<CaseOutcome> training = new ArrayList<>();
        training.addAll(outcomes.stream().filter(o -> o.phase().equals("training")).toList());
        training.addAll(today.stream().filter(o -> o.phase().equals("training")).toList());
        training.addAll(unseen);
        training.addAll(unseenFour);
        training.addAll(unseenFive);
        long infeasible = training.stream().filter(o -> o.status().equals("infeasible")).count();
        assertEquals(20 + 1549 + 188 + 217 + 94 + unseenFive.size(), training.size());
        assertTrue(infeasible <= 0.02 * training.size(), infeasible + " of " + training.size() + " infeasible: "
                + training.stream().filter(o -> o.status().equals("infeasible")).map(CaseOutcome::caseId).toList());
    }

    @Test
    void rowsCompletedFromTheCatalogueSayWhich() {
        List<CaseOutcome> moe = today.stream().filter(o -> o.caseId().startsWith("mbridge")
                && !o.note().isEmpty()).toList();
        assertTrue(moe.stream().anyMatch(o -> o.note().contains("catalogued model deepseek-v3 (MLA")), "" + moe);
        assertTrue(moe.stream().anyMatch(o -> o.note().contains("catalogued model qwen3-30b-a3b (head_dim 128)")));
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
