package io.ridgeline.engine.validation;

import io.ridgeline.engine.spec.CsvTable;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One validation case file, its rows and how the validator scored them, grouped by the framework each row names. */
record ScoredCaseFile(List<CsvTable.Row> rows, List<CaseOutcome> outcomes, Map<String, String> frameworkByCase) {

    /** Reads and scores validation/{@code name}. */
    static ScoredCaseFile score(String name) {
        var file = ValidationThresholdsTest.validationDir().resolve(name);
        List<CsvTable.Row> rows = CsvTable.read(file).rows();
        Map<String, String> frameworks = new HashMap<>();
        for (CsvTable.Row r : rows) {
            frameworks.put(r.string("case_id"), r.string("framework"));
        }
        return new ScoredCaseFile(rows, new Validator().run(List.of(file)), Map.copyOf(frameworks));
    }

    /** Every row is a serving run that ran and was scored: phase inference, status ok, a finite positive prediction. */
    void assertEveryRowIsAScoredServingRun() {
        for (CaseOutcome o : outcomes) {
            assertEquals("inference", o.phase(), o.caseId());
            assertEquals("ok", o.status(), o.caseId() + ": " + o.reason());
            assertTrue(o.predicted() > 0 && Double.isFinite(o.predicted()), o.caseId() + ": " + o.predicted());
        }
    }

    /** The outcomes of the rows whose framework column is {@code framework}. */
    List<CaseOutcome> group(String framework) {
        return outcomes.stream().filter(o -> frameworkByCase.get(o.caseId()).equals(framework)).toList();
    }
}
