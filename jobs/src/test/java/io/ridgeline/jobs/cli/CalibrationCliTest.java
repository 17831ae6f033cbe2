package io.ridgeline.jobs.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code eval --calibration} and a sweep's {@code calibration:} from the command line. eval applies the whole profile, as a sweep's {@code calibration:} does: a stack value
 * ({@code stacks.*}) reaches the point (before, eval applied only the hardware catalogue), and the row's _lo/_hi
 * columns are the profile's intervals, the same numbers eval prints beside its outputs.
 */
class CalibrationCliTest {
    @TempDir
    Path dir;

    private static final String[] POINT = {"eval", "--phase", "training", "--model", "megatron-1.7b", "--chip",
        "a100-80g", "--gpu-count", "8", "--tp", "1", "--seq-len", "512", "--global-batch", "8", "--software",
        "megatron-lm@2021", "--json"};

    private static JsonNode eval(String... extra) throws Exception {
        String[] args = java.util.Arrays.copyOf(POINT, POINT.length + extra.length);
        System.arraycopy(extra, 0, args, POINT.length, extra.length);
        CliRun o = CliRun.of(args);
        assertEquals(0, o.code(), o.err());
        return new ObjectMapper().readTree(o.out());
    }

    @Test
    void aStackValueOfTheProfileReachesThePointAndItsIntervalsFillTheRow() throws Exception {
        Path profile = dir.resolve("host.yaml");
        Files.writeString(profile, String.join("\n", "calibration:", "  parameters:",
                "    - {parameter: stacks.megatron-lm@2021.training.host_us_per_kernel, value: 200}",
                "  intervals:", "    coverage: 0.8", "    groups:",
                "      - {output: step_time, stack: \"*\", family: \"*\", residuals: 9, sources: 4,"
                        + " log_ratio_low: -0.3, log_ratio_high: 0.25}", ""));
        JsonNode before = eval();
        JsonNode after = eval("--calibration", profile.toString());
        double t0 = before.get("step_time_s").asDouble();
        double t = after.get("step_time_s").asDouble();
        // one 512-token sequence per GPU of a 1.7B model is launch-bound: 200 us of host time per kernel (37 shipped)
        // shows
        assertTrue(t > 1.2 * t0, t + " s with the profile, " + t0 + " s without");
        assertEquals(t * Math.exp(-0.25), after.get("step_time_s_lo").asDouble(), 1e-9 * t);
        assertEquals(t * Math.exp(0.3), after.get("step_time_s_hi").asDouble(), 1e-9 * t);
        assertEquals(after.get("step_time_s_lo").asDouble(), after.get("step_time_s_interval").get(0).asDouble(), 0);
        assertEquals(after.get("step_time_s_hi").asDouble(), after.get("step_time_s_interval").get(1).asDouble(), 0);
        assertEquals("megatron-lm|ampere", after.get("interval_group").asText());
    }

    /** `sweep` names the profile in its header, and a bad one fails before Spark starts (exit code 2). */
    @Test
    void sweepChecksItsProfileBeforeSpark() throws Exception {
        Path good = dir.resolve("sweeps/good.yaml");
        Files.createDirectories(good.getParent());
        Files.writeString(dir.resolve("sweeps/p.yaml"), "calibration:\n  parameters:\n"
                + "    - {parameter: families.ampere.gemm_peak_fraction, value: 0.6}\n");
        Files.writeString(dir.resolve("sweeps/bad-p.yaml"), "calibration:\n  parameters:\n"
                + "    - {parameter: families.ampere.gemm_peak_fraction, value: 1.6}\n");
        String sweep = String.join("\n", "name: cal", "models: [llama2-7b]",
                "phases: [{phase: training, seq_len: 2048, global_batch: 64}]", "hardware: {presets: [a100-80g]}",
                "cluster: {gpu_count: [8]}", "parallelism: {tp: [8]}", "");
        Files.writeString(good, sweep + "calibration: p.yaml\n");
        CliRun ok = CliRun.of("sweep", good.toString(), "--dry-run");
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("  calibration: " + dir.resolve("sweeps/p.yaml") + " sha256:"), ok.out());
        Path bad = dir.resolve("sweeps/bad.yaml");
        Files.writeString(bad, sweep + "calibration: bad-p.yaml\n");
        CliRun no = CliRun.of("sweep", bad.toString(), "--dry-run");
        assertEquals(2, no.code(), no.out());
        assertTrue(no.err().contains(dir.resolve("sweeps/bad-p.yaml") + ":3:62: calibration.parameters[0].value: "
                + "expected a number in [0.3, 1], found 1.6"), no.err());
    }
}
