package io.ridgeline.engine.sweep;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sweep files of the seed-paper studies (docs/studies/) parse and validate, so the write-ups stay reproducible.
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
    void study3InferenceDramIsValid() {
        SweepSpec s = SweepLoader.load(SWEEPS.resolve("study-3-inference-dram.yaml"));
        assertEquals("study-3-inference-dram", s.name());
        assertEquals(2 * 5, s.derived().size(), "every derived design can be built");
        assertEquals(List.of("llama3-70b"), s.models());
        assertEquals(SweepSpec.Phase.INFERENCE, s.workloads().get(0).phase());
    }

    @Test
    void study4InvestIsValidWithSensitivitiesOn() {
        SweepSpec s = SweepLoader.load(SWEEPS.resolve("study-4-invest.yaml"));
        assertEquals("study-4-invest", s.name());
        assertEquals(2 * 2, s.derived().size(), "base, +10% area, +10% power, both: every one can be built");
        assertTrue(s.sensitivity(), "the study's columns need output.sensitivity");
    }
}
