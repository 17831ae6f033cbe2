package io.ridgeline.jobs.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** calibrate end to end on the A100 GEMM rows (fast), and the profile applied by validate and eval. */
class CalibrateCommandTest {
    private static final String DEV = "../validation/cases-dev.csv";
    @TempDir
    Path dir;

    private static List<String> names(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void jsonHasExactlyTheShapeOfIssue11AndTheProfileIsWritten() throws Exception {
        Path profile = dir.resolve("gemm.yaml");
        CliRun o = CliRun.of("calibrate", "--cases", DEV, "--gpu", "a100-80g", "--phase", "gemm", "--parameters",
                "families.ampere.gemm_peak_fraction,families.ampere.tile_overhead_cycles", "--out",
                profile.toString(), "--json");
        assertEquals(0, o.code(), o.err());
        JsonNode root = new ObjectMapper().readTree(o.out());
        assertEquals(List.of("parameters", "in_sample", "cross_validation"), names(root));
        JsonNode p = root.get("parameters").get(0);
        assertEquals(List.of("name", "unit", "before", "after", "lower", "upper"), names(p));
        assertEquals("families.ampere.gemm_peak_fraction", p.get("name").asText());
        assertEquals("fraction", p.get("unit").asText());
        assertEquals(List.of("before_mean_abs_error_pct", "after_mean_abs_error_pct", "cases"),
                names(root.get("in_sample")));
        assertEquals(9, root.get("in_sample").get("cases").asInt());
        JsonNode cv = root.get("cross_validation");
        assertEquals(List.of("method", "mean_abs_error_pct", "folds"), names(cv));
        assertEquals("leave-one-source-out", cv.get("method").asText());
        assertEquals(2, cv.get("folds").size(), "Azure cuBLASLt and ml-engineering MAMF");
        assertEquals(List.of("held_out", "cases", "mean_abs_error_pct"), names(cv.get("folds").get(0)));
        String yaml = Files.readString(profile);
        assertTrue(yaml.contains("    - parameter: families.ampere.gemm_peak_fraction\n"), yaml);
        assertTrue(yaml.contains("  code_version: \""), yaml);
        assertTrue(yaml.contains("    files: [\"" + DEV + "\"]\n"), yaml);
    }

    @Test
    void validateAndEvalApplyAProfile() throws Exception {
        Path profile = dir.resolve("p.yaml");
        Files.writeString(profile, "calibration:\n  parameters:\n"
                + "    - {parameter: families.ampere.gemm_peak_fraction, value: 0.6}\n");
        CliRun base = CliRun.of("validate", "--cases", DEV, "--json");
        CliRun cal = CliRun.of("validate", "--cases", DEV, "--json", "--calibration", profile.toString());
        assertEquals(0, cal.code(), cal.err());
        JsonNode a = new ObjectMapper().readTree(base.out()).get("cases").get(0);
        JsonNode b = new ObjectMapper().readTree(cal.out()).get("cases").get(0);
        assertEquals(a.get("case_id"), b.get("case_id"));
        assertEquals("ok", b.get("status").asText());
        assertNotEquals(a.get("error_pct").asDouble(), b.get("error_pct").asDouble(), "a slower GEMM moves it");
        CliRun e = CliRun.of("eval", "--phase", "gemm", "--chip", "a100-80g", "-m", "8192", "-n", "8192", "-k", "8192",
                "--json", "--calibration",
                profile.toString());
        CliRun e0 = CliRun.of("eval", "--phase", "gemm", "--chip", "a100-80g", "-m", "8192", "-n", "8192", "-k",
                "8192", "--json");
        assertEquals(0, e.code(), e.err());
        double t = new ObjectMapper().readTree(e.out()).get("tflops").asDouble();
        double t0 = new ObjectMapper().readTree(e0.out()).get("tflops").asDouble();
        assertEquals(0.6 / 0.881, t / t0, 0.05, "GEMM throughput scales with the peak fraction");
    }

    @Test
    void evalPrintsIntervalsBesideTheNumbers() {
        CliRun o = CliRun.of("eval", "--phase", "training", "--model", "llama2-7b", "--chip", "a100-80g", "--gpu-count",
                "8", "--tp", "8", "--seq-len", "2048", "--global-batch", "64");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().matches("(?s).*tokens/s [0-9.e+]+ \\[80%: [0-9.e+]+ – [0-9.e+]+\\].*"), o.out());
        CliRun i = CliRun.of("eval", "--phase", "inference", "--model", "llama2-7b", "--chip", "h100-sxm",
                "--gpu-count", "1", "--tp", "1", "--batch", "1", "--input-tokens", "512", "--output-tokens", "128",
                "--json");
        assertTrue(i.out().contains("\"e2e_latency_s_interval\" : ["), i.out());
        assertTrue(i.out().contains("\"interval_coverage\" : 0.8"), i.out());
    }

    @Test
    void badProfilesAndSelectionsFailBeforeAnythingRuns() throws Exception {
        Path profile = dir.resolve("bad.yaml");
        Files.writeString(profile, "calibration:\n  parameters:\n    - parameter: scaleout.ndr.eficiency\n"
                + "      value: 0.5\n");
        CliRun o = CliRun.of("eval", "--calibration", profile.toString());
        assertEquals(2, o.code());
        assertTrue(o.err().contains(profile + ":3:18: calibration.parameters[0].parameter: expected a calibratable "
                + "catalogue path: one of ["), o.err());
        assertTrue(o.err().contains("(did you mean 'scaleout.ndr.efficiency'?)"), o.err());
        CliRun g = CliRun.of("calibrate", "--cases", DEV, "--gpu", "a100", "--out", dir.resolve("x.yaml").toString());
        assertEquals(2, g.code());
        assertTrue(g.err().contains("command line: --gpu: expected one of ["), g.err());
        assertFalse(Files.exists(dir.resolve("x.yaml")));
        CliRun none = CliRun.of("calibrate", "--cases", DEV, "--gpu", "b200", "--out",
                dir.resolve("y.yaml").toString());
        assertEquals(2, none.code());
        assertTrue(none.err().contains("command line: selection: expected at least one case of"), none.err());
        CliRun pen = CliRun.of("calibrate", "--cases", DEV, "--penalty", "-1", "--out",
                dir.resolve("z.yaml").toString());
        assertEquals(2, pen.code());
        assertTrue(pen.err().contains("command line: --penalty: expected auto, inf or a number >= 0, found '-1'"),
                pen.err());
    }
}
