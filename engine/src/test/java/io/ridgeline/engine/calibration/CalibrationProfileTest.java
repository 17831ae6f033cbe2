package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CatalogOverrides;
import io.ridgeline.engine.spec.InvalidInputException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CalibrationProfileTest {
    @Test
    void aWrittenProfileReadsBackToTheFittedValues() {
        CaseScorer s = CaseScorer.read(List.of(Path.of("../validation/cases-dev.csv")));
        CaseSelection gemm = new CaseSelection(List.of(), List.of(), List.of("gemm"), List.of());
        Calibration.Result r = Calibration.run(s, new Calibration.Request(gemm,
                List.of("families.ampere.gemm_peak_fraction", "families.ampere.tile_overhead_cycles"),
                Fitter.Weighting.CASE, Fitter.Loss.LINEAR, CatalogOverrides.NONE, 0.8));
        String yaml = ProfileWriter.yaml(r, List.of("validation/cases-dev.csv"), "dev+test", "ridgeline calibrate");
        assertTrue(yaml.contains("    selection: {gpu: [], framework: [], phase: [\"gemm\"], metric: []}\n"), yaml);
        assertTrue(yaml.contains("    count: 9\n"), yaml);
        assertTrue(yaml.contains("      method: leave-one-source-out\n"), yaml);
        CalibrationProfile p = CalibrationProfile.parse("p.yaml", yaml);
        assertEquals("dev+test", p.codeVersion());
        assertEquals(2, p.values().size());
        for (int j = 0; j < 2; j++) {
            double v = r.fit().value(j);
            assertEquals(v, p.values().get(r.fit().parameters().get(j).path()), Math.abs(v) * 1e-5);
        }
        assertEquals(r.intervals().groups().size(), p.intervals().groups().size());
        // Applied, the profile gives the fit's in-sample error.
        double applied = Calibration.meanAbsErrorPct(s, p.catalogs(), r.cases());
        assertEquals(r.afterErrorPct(), applied, 1e-3);
    }

    @Test
    void badProfilesNameFileLineColumnAndField() {
        String text = """
                calibration:
                  code_version: "x"
                  colour: blue
                  parameters:
                    - parameter: families.hoper.gemm_peak_fraction
                      value: 0.8
                    - parameter: families.hopper.dram_fraction
                      value: 1.7
                """;
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> CalibrationProfile.parse("mine.yaml", text));
        String m = e.getMessage();
        assertTrue(m.contains("mine.yaml:3:3: calibration.colour: expected a known key: one of ["), m);
        assertTrue(m.contains("mine.yaml:5:18: calibration.parameters[0].parameter: expected a calibratable "
                + "catalogue path: one of ["), m);
        assertTrue(m.contains("(did you mean 'families.hopper.gemm_peak_fraction'?), found "
                + "'families.hoper.gemm_peak_fraction'"), m);
        assertTrue(m.contains("mine.yaml:8:14: calibration.parameters[1].value: expected a number in [0.3, 1], "
                + "found 1.7"), m);
        assertEquals(3, e.errors().size(), m);
    }
}
