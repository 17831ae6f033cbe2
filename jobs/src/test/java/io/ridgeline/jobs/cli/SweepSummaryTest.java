package io.ridgeline.jobs.cli;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.jobs.sweep.SweepJob;
import io.ridgeline.schema.ResultsSchema;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The console summary of a big frontier stays short and says where the rest is. */
class SweepSummaryTest {
    private static Row row(String group, int i) {
        Object[] v = new Object[ResultsSchema.FRONTIER.columns().size()];
        set(v, "frontier_group", group);
        set(v, "phase", "training");
        set(v, "chip", "h100-sxm");
        set(v, "gpu_count", 512);
        set(v, "scale_out", "ndr");
        set(v, "topology", "none");
        for (String c : List.of("tp", "pp", "dp", "cp", "vpp", "micro_batch")) {
            set(v, c, 1);
        }
        set(v, "recompute", "selective");
        set(v, "tokens_per_s", 1000.0 + i);
        set(v, "cost_usd", 1e6);
        return RowFactory.create(v);
    }

    /** A one-point training sweep whose objectives are tokens/s (with an interval) and cost (without). */
    private static SweepSpec spec() {
        return new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled()).parse("s.yaml",
                String.join("\n", "name: s", "models: [llama2-7b]",
                        "phases: [{phase: training, seq_len: [2048], global_batch: [512]}]",
                        "hardware: {presets: [a100-80g]}", "cluster: {gpu_count: [64]}",
                        "parallelism: {tp: [8], pp: [1]}", "objectives: [{max: tokens_per_s}, {min: cost_usd}]", ""));
    }

    private static void set(Object[] v, String column, Object value) {
        v[ResultsSchema.FRONTIER.index(column)] = value;
    }

    @Test
    void aHundredAndTwentyGroupFrontierPrintsABoundedSummary() {
        SweepSpec spec = spec();
        List<Row> frontier = new ArrayList<>();
        for (int g = 0; g < 120; g++) {
            for (int i = 0; i < 6; i++) {
                frontier.add(row(String.format("model=m,chip=c%03d", g), i));
            }
        }
        long[] status = new long[PointStatus.values().length];
        status[PointStatus.OK.ordinal()] = 720;
        SweepJob.RunResult r = new SweepJob.RunResult("s-1", "file:/r/points/run_id=s-1", "file:/r/frontier/run_id=s-1",
                "file:/r/runs/run_id=s-1", 720, 720, 720, 720, status, 2.0, 30.0, frontier, 4);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new SweepSummary(8, 5).print(new PrintStream(bytes, true), spec, r, "results");
        List<String> lines = bytes.toString().lines().toList();
        assertTrue(lines.size() <= 6 + 1 + 8 * 7 + 2, lines.size() + " lines");
        assertTrue(lines.contains("frontier (max tokens_per_s, min cost_usd): 720 rows in 120 groups"), lines.toString());
        assertEquals(8, lines.stream().filter(l -> l.startsWith("  model=m,chip=")).count());
        assertEquals(8, lines.stream().filter(l -> l.equals("    ... 1 more")).count());
        assertTrue(lines.contains("  shown: 8 of 120 groups, 40 of 720 rows (--frontier-groups, --frontier-lines); all "
                + "of them:"), lines.toString());
        assertEquals("query:    scripts/ridgeline sql --out results \"select * from frontier where run_id = 's-1'\"",
                lines.get(lines.size() - 1));
        assertTrue(lines.contains("  [lo, hi] = 80% prediction interval; 0 of 720 rows not robust (another design may "
                + "beat them inside the intervals; docs/CALIBRATION.md)"), lines.toString());
        assertTrue(lines.get(0).endsWith("total 30.0 s"), lines.get(0));
    }

    @Test
    void frontierLinesShowTheObjectivesIntervalsAndFlagTheRowsThatAreNotRobust() {
        SweepSpec spec = spec();
        Object[] a = cells(row("g", 0));
        set(a, "tokens_per_s_lo", 800.0);
        set(a, "tokens_per_s_hi", 1250.0);
        set(a, "robust", true);
        Object[] b = cells(row("g", 1));
        set(b, "tokens_per_s_lo", 810.0);
        set(b, "tokens_per_s_hi", 1260.0);
        set(b, "robust", false);
        long[] status = new long[PointStatus.values().length];
        status[PointStatus.OK.ordinal()] = 2;
        SweepJob.RunResult r = new SweepJob.RunResult("s-1", "file:/r/points/run_id=s-1", "file:/r/frontier/run_id=s-1",
                "file:/r/runs/run_id=s-1", 2, 2, 2, 2, status, 2.0, 30.0,
                List.of(RowFactory.create(a), RowFactory.create(b)), 4);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new SweepSummary(8, 5).print(new PrintStream(bytes, true), spec, r, "results");
        List<String> lines = bytes.toString().lines().toList();
        List<String> rows = lines.stream().filter(l -> l.startsWith("    h100-sxm")).toList();
        assertEquals(2, rows.size(), lines.toString());
        assertTrue(rows.get(0).contains("tokens_per_s=1000 [800, 1.25e+03]") && !rows.get(0).contains("not robust"),
                rows.get(0));
        assertTrue(rows.get(1).contains("tokens_per_s=1001 [810, 1.26e+03]") && rows.get(1).endsWith("not robust"),
                rows.get(1));
        assertTrue(lines.contains("  [lo, hi] = 80% prediction interval; 1 of 2 rows not robust (another design may "
                + "beat them inside the intervals; docs/CALIBRATION.md)"), lines.toString());
    }

    private static Object[] cells(Row row) {
        Object[] v = new Object[row.length()];
        for (int i = 0; i < v.length; i++) {
            v[i] = row.get(i);
        }
        return v;
    }
}
