package io.ridgeline.engine.validation;

import io.ridgeline.engine.spec.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ValidatorInputTest {
    private static final String HEADER = String.join(",", Validator.COLUMNS) + ",framework";

    private static String row(String id, String gpu, String metric) {
        // GPT-22B, TP 8 on 8 GPUs (Korthikanti Table 3 layout).
        return id + ",training,GPT-22B,48,6144,64,64,24576,gelu,51200,2048,,," + gpu
                + ",8,8,200,8,1,1,1,1,0,1,0,4,4,,full,,,,,,," + metric + ",1.42,src,notes,megatron-lm@2022";
    }

    @Test
    void unknownGpusAndMetricsAreListedWithTheReasonNotDropped(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("cases.csv");
        Files.writeString(f, HEADER + "\n" + row("ok", "a100-80g", "iteration_time_s") + "\n"
                + row("gpu", "a100-90g", "iteration_time_s") + "\n" + row("metric", "a100-80g", "joules") + "\n");
        List<CaseOutcome> out = new Validator().run(List.of(f));
        assertEquals(3, out.size());
        assertEquals("ok", out.get(0).status());
        assertEquals("unsupported", out.get(1).status());
        assertTrue(out.get(1).reason().contains("gpu: expected a known GPU id, found 'a100-90g'"), out.get(1).reason());
        assertEquals("unsupported", out.get(2).status());
        assertEquals("metric 'joules' is not a training metric", out.get(2).reason());
    }

    @Test
    void aTrainingRowWithoutItsFrameworkNamesTheField(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("cases.csv");
        Files.writeString(f, String.join(",", Validator.COLUMNS) + "\n"
                + row("nostack", "a100-80g", "iteration_time_s").replace(",megatron-lm@2022", "") + "\n");
        CaseOutcome o = new Validator().run(List.of(f)).get(0);
        assertEquals("unsupported", o.status());
        assertTrue(o.reason().contains("framework: expected the training stack"), o.reason());
    }

    @Test
    void aFileWithoutTheCaseColumnsIsRejectedNamingTheColumn(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("bad.csv");
        Files.writeString(f, "case_id,phase\nx,training\n");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> new Validator().run(List.of(f)));
        assertTrue(e.getMessage().startsWith(f + ":1: model: expected a column named 'model'"), e.getMessage());
    }
}
