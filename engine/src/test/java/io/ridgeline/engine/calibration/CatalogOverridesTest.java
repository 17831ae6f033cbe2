package io.ridgeline.engine.calibration;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.spec.CatalogOverrides;
import io.ridgeline.engine.spec.InvalidInputException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Calibration = catalogue values replaced at parse time; nothing else changes. */
class CatalogOverridesTest {
    private static Catalogs with(String path, double value) {
        return Catalogs.of(new CatalogOverrides("test profile", Map.of(path, value)));
    }

    @Test
    void familyAndNetworkValuesAreReplacedWhereTheyAreReadAndNowhereElse() {
        Catalogs c = with("families.hopper.gemm_peak_fraction", 0.7);
        assertEquals(0.7, c.hardware().chip("h100-sxm").family().gemmPeakFraction(), 0);
        assertEquals(0.7, c.value("families.hopper.gemm_peak_fraction"), 0);
        assertEquals(0.8, HardwareCatalog.bundled().chip("h100-sxm").family().gemmPeakFraction(), 0);
        assertEquals(HardwareCatalog.bundled().chip("a100-80g"), c.hardware().chip("a100-80g"));
        Catalogs n = with("scaleout.ndr.latency_us", 8);
        assertEquals(8e-6, n.hardware().network("ndr").stepLatencySeconds(), 1e-18);
        assertEquals(HardwareCatalog.bundled().network("hdr"), n.hardware().network("hdr"));
        assertSame(Catalogs.bundled(), Catalogs.of(CatalogOverrides.NONE));
    }

    @Test
    void aStackValueIsInheritedThroughExtendsAndNamesTheProfile() {
        Catalogs c = with("stacks.megatron-lm@2021.training.host_us_per_kernel", 20);
        assertEquals(20e-6, c.stacks().profile("megatron-deepspeed").training().hostSecondsPerKernel(), 1e-18);
        assertEquals(20e-6, c.stacks().profile("megatron-lm@2022").training().hostSecondsPerKernel(), 1e-18);
        assertEquals("calibrated: test profile",
                c.stacks().profile("megatron-deepspeed").source("training.host_us_per_kernel"));
        // A child's own override leaves its parent alone.
        Catalogs child = with("stacks.megatron-deepspeed.training.host_us_per_kernel", 20);
        assertEquals(Catalogs.bundled().stacks().profile("megatron-lm@2021"),
                child.stacks().profile("megatron-lm@2021"));
        assertEquals(20e-6, child.stacks().profile("megatron-deepspeed").training().hostSecondsPerKernel(), 1e-18);
    }

    @Test
    void unknownPathsAndRejectedValuesAreInputErrorsNamingThePath() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> with("families.hoper.gemm_peak_fraction", 0.7));
        assertTrue(e.getMessage().startsWith("test profile: families.hoper.gemm_peak_fraction: expected a catalogue "
                + "path: one of ["), e.getMessage());
        assertTrue(e.getMessage().contains("(did you mean 'families.hopper.gemm_peak_fraction'?)"), e.getMessage());
        InvalidInputException v = assertThrows(InvalidInputException.class,
                () -> with("families.hopper.gemm_peak_fraction", 1.5));
        assertTrue(v.getMessage().startsWith("test profile: families.hopper.gemm_peak_fraction: expected a value the "
                + "catalogue accepts"), v.getMessage());
        InvalidInputException s = assertThrows(InvalidInputException.class,
                () -> with("stacks.vllm.training.host_us_per_kernel", 20));
        assertTrue(s.getMessage().contains("stacks.vllm.training.host_us_per_kernel"), s.getMessage());
    }

    @Test
    void everyDeclaredParameterHasACatalogueValueForEveryEntry() {
        Catalogs c = Catalogs.bundled();
        for (String family : c.hardware().families().keySet()) {
            assertTrue(c.values().containsKey("families." + family + ".gemm_peak_fraction"), family);
        }
        for (String path : ParameterRegistry.paths(c)) {
            Parameter p = ParameterRegistry.parameter(path, c, "test", "p");
            double v = c.value(path);
            assertTrue(v >= p.lower() && v <= p.upper(), path + " = " + v + " outside its declared bounds");
        }
    }

    @Test
    void rescoringSkipsCasesWhoseChipNetworkAndStackAreUnchanged() {
        CaseScorer s = CaseScorer.read(List.of(Path.of("../validation/cases-dev.csv")));
        int[] all = s.select(CaseSelection.ALL);
        double[] base = new double[all.length];
        s.predict(Catalogs.bundled(), all, base);
        double[] moved = new double[all.length];
        Catalogs hopper = with("families.hopper.gemm_peak_fraction", 0.7);
        int rescored = s.predictChanged(Catalogs.bundled(), hopper, all, base, moved);
        long h100 = s.cases().stream().filter(c -> c.gpu().startsWith("h100")).count();
        assertEquals(h100, rescored);
        double[] full = new double[all.length];
        s.predict(hopper, all, full);
        for (int i = 0; i < all.length; i++) {
            assertEquals(full[i], moved[i], 0, s.cases().get(i).caseId());
        }
    }
}
