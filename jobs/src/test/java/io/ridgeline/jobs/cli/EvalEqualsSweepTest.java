package io.ridgeline.jobs.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.jobs.sweep.PointRows;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An eval point is a one-point sweep: the point read by {@code eval --file} gives, column for column, the row the same
 * point gets inside a larger sweep (only its index in the grid differs).
 */
class EvalEqualsSweepTest {
    @TempDir
    Path dir;

    private static final String SWEEP = String.join("\n",
            "name: grid",
            "models: [llama2-7b, llama2-13b]",
            "phases:",
            "  - {phase: training, seq_len: [2048, 4096], global_batch: [64], software: [megatron-bridge@25.11, "
                    + "megatron-lm@2021]}",
            "  - {phase: inference, batch: [1, 16], input_tokens: [512], output_tokens: [128], kv_cache_precision: "
                    + "[bf16, fp8]}",
            "hardware: {presets: [a100-80g, h100-sxm]}",
            "network: {scale_out: [default, eth400]}",
            "cluster: {gpu_count: [8, 16]}",
            "PARALLELISM",
            "cost: {usd_per_kwh: 0.3, tokens: 1.0e9}",
            "");

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
        "llama2-13b|{phase: training, seq_len: 4096, global_batch: 64, software: megatron-lm@2021}|a100-80g|eth400|16"
                + "|{mode: explicit, plans: [{tp: 4, pp: 2}]}",
        "llama2-7b|{phase: inference, batch: 16, input_tokens: 512, output_tokens: 128, kv_cache_precision: fp8}"
                + "|h100-sxm|default|8|{mode: explicit, plans: [{tp: 4, pp: 2}]}",
        "llama2-7b|{phase: training, seq_len: 2048, global_batch: 64}|h100-sxm|default|16"
                + "|{tp: [1, 2, 4, 8], pp: [1, 2], micro_batch: [1, 2]}",
        "llama2-13b|{phase: inference, batch: 1, input_tokens: 512, output_tokens: 128}|a100-80g|eth400|8"
                + "|{tp: [1, 2, 4, 8], pp: [1, 2]}"})
    void evalOfAYamlPointEqualsThatPointInASweep(String model, String phase, String chip, String scaleOut, int gpus,
                                                  String parallelism) throws Exception {
        Path point = dir.resolve("point.yaml");
        Files.writeString(point, String.join("\n", "models: [" + model + "]", "phases: [" + phase + "]",
                "hardware: {presets: [" + chip + "]}", "network: {scale_out: [" + scaleOut + "]}",
                "cluster: {gpu_count: [" + gpus + "]}", "parallelism: " + parallelism,
                "cost: {usd_per_kwh: 0.3, tokens: 1.0e9}", ""));
        CliRun eval = CliRun.of("eval", "--file", point.toString(), "--json");
        assertEquals(0, eval.code(), eval.err());
        Map<String, Object> fromEval = new ObjectMapper().readValue(eval.out(), new TypeReference<>() { });

        SweepSpec grid = new SweepLoader(io.ridgeline.engine.workload.ModelCatalog.bundled(),
                io.ridgeline.engine.hardware.HardwareCatalog.bundled()).parse("grid.yaml",
                SWEEP.replace("PARALLELISM", "parallelism: " + parallelism.replace("[{tp: 4, pp: 2}]",
                        "[{tp: 2, pp: 1}, {tp: 4, pp: 2}]")));
        Evaluator ev = new Evaluator(grid);
        Map<String, Object> fromSweep = null;
        int matches = 0;
        for (long i = 0; i < ev.grid().size(); i++) {
            for (ResultRow r : ev.evaluate(i)) {
                Map<String, Object> row = json(PointRows.toMap(r));
                if (same(row, fromEval)) {
                    fromSweep = row;
                    matches++;
                }
            }
        }
        assertEquals(1, matches, "the point is in the sweep exactly once");
        assertTrue(fromEval.size() > 40, "a full row: " + fromEval.keySet());
        fromEval.remove("point_index");
        fromSweep.remove("point_index");
        fromEval.remove("plan_index");
        fromSweep.remove("plan_index");
        // eval adds the prediction intervals of its main outputs beside the row's columns (issue 11)
        assertTrue(fromEval.containsKey("interval_coverage"), "eval prints intervals: " + fromEval.keySet());
        fromEval.keySet().removeIf(k -> k.endsWith("_interval") || k.equals("interval_coverage"));
        assertEquals(fromSweep, fromEval);
    }

    /** The same point: its settings and plan columns agree (the metrics are what the test compares). */
    private static boolean same(Map<String, Object> a, Map<String, Object> b) {
        for (String k : new String[]{"model", "phase", "seq_len", "global_batch", "chip", "scale_out", "gpu_count",
            "software", "kv_cache_precision", "tp", "pp", "micro_batch", "dp"}) {
            if (!String.valueOf(a.get(k)).equals(String.valueOf(b.get(k)))) {
                return false;
            }
        }
        return true;
    }

    /** A row as its JSON reads back (numbers as Jackson types them), so the two sides compare like for like. */
    private static Map<String, Object> json(Map<String, Object> row) throws Exception {
        ObjectMapper m = new ObjectMapper();
        return new HashMap<>(m.readValue(m.writeValueAsString(row), new TypeReference<Map<String, Object>>() { }));
    }
}
