package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.workload.ModelCatalog;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sweep files of the seed-paper studies (docs/studies/) parse and validate, so the write-ups stay reproducible.
 * Study 3 uses the inference phase: until sweeps accept it, the only error allowed is that refusal.
 */
class StudySweepFilesTest {
    private static final Path SWEEPS = Path.of(System.getProperty("ridgeline.project.dir", "..")).resolve("sweeps");

    @Test
    void study1GenerationsIsValid() {
        SweepSpec s = SweepLoader.load(SWEEPS.resolve("study-1-gpt3-generations.yaml"));
        assertEquals("study-1-gpt3-generations", s.name());
        assertEquals(4, s.derived().size(), "the A100 -> B200 chain of derived chips");
        assertEquals(8, s.chips().size(), "4 presets + 4 derived");
        assertEquals(List.of("gpt3-175b"), s.models());
    }

    @Test
    void study2TechnologyDseIsValidAndEveryDesignCanBeBuilt() {
        SweepSpec s = SweepLoader.load(SWEEPS.resolve("study-2-technology-dse.yaml"));
        assertEquals("study-2-technology-dse", s.name());
        assertEquals(6 * 4, s.derived().size(), "6 nodes x 4 DRAM generations, none impossible");
    }

    @Test
    void study3InferenceDramIsValidOnceTheInferencePhaseLands() throws Exception {
        Path file = SWEEPS.resolve("study-3-inference-dram.yaml");
        String text = Files.readString(file);
        try {
            SweepSpec s = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled()).parse(file.toString(),
                    text);
            assertEquals("study-3-inference-dram", s.name());
            assertEquals(2 * 5, s.derived().size());
        } catch (InvalidInputException e) {
            // Before the inference phase lands: every error is about that phase entry, one of them its refusal...
            List<InputError> errors = e.errors();
            assertTrue(errors.stream().anyMatch(err -> err.fieldPath().equals("phases[0].phase")
                    && err.found().contains("inference")), errors.toString());
            for (InputError err : errors) {
                assertTrue(err.fieldPath().startsWith("phases[0]."), "only the inference phase may fail: " + err);
            }
            // ...and the rest of the file (derived chips, cluster, parallelism, output) is valid as it stands.
            String phase = text.substring(text.indexOf("  - phase: inference"), text.indexOf("\nhardware:") + 1);
            SweepSpec rest = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled()).parse(
                    file.toString(), text.replace(phase, "  - phase: training\n    seq_len: [2304]\n    global_batch: [64]\n"));
            assertEquals(2 * 5, rest.derived().size(), "every derived design can be built");
            assertEquals(List.of("llama3-70b"), rest.models());
        }
    }
}
