package io.ridgeline.engine.validation;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The validate command scores every inference row of cases-dev.csv with the inference model. */
class EngineInferencePredictorTest {
    @Test
    void scoresEveryInferenceRowOfTheDevCases() {
        Path dir = Path.of(System.getProperty("ridgeline.validation.dir", "../validation"));
        List<CaseOutcome> all = new Validator().run(List.of(dir.resolve("cases-dev.csv")));
        List<CaseOutcome> inference = all.stream().filter(o -> o.phase().equals("inference")).toList();
        assertEquals(30, inference.size());
        for (CaseOutcome o : inference) {
            assertTrue(o.isOk(), o.caseId() + ": " + o.status() + " " + o.reason());
            assertTrue(Math.abs(o.errorPct()) < 15, o.caseId() + ": " + o.errorPct());
        }
    }
}
