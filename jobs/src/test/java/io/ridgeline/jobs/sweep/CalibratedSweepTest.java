package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.calibration.SweepCalibration;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.sweep.Grid;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.jobs.sql.SparkSessions;
import io.ridgeline.schema.ResultsSchema;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sweep with {@code calibration:} (issue 11) on real Spark local[2]: the profile's constants reach every point, its
 * intervals fill the _lo/_hi columns, the manifest records which profile the run used, and the frontier's robust
 * flag follows the intervals. Bad {@code calibration:} values fail before anything runs.
 */
class CalibratedSweepTest {
    /** A profile as `ridgeline calibrate` writes it (the parts a run applies): a slower Hopper GEMM, its intervals. */
    static final String PROFILE = String.join("\n",
            "calibration:",
            "  code_version: \"test-fit\"",
            "  parameters:",
            "    - parameter: families.hopper.gemm_peak_fraction",
            "      value: 0.5",
            "  intervals:",
            "    coverage: 0.8",
            "    groups:",
            "      - {output: step_time, stack: \"*\", family: \"*\", residuals: 40, sources: 5,"
                    + " log_ratio_low: -0.2, log_ratio_high: 0.1}",
            "");
    static final String SWEEP = String.join("\n",
            "name: calibrated",
            "models: [llama2-7b, llama2-13b]",
            "phases: [{phase: training, seq_len: [4096], global_batch: [512, 1024]}]",
            "hardware: {presets: [h100-sxm, a100-80g]}",
            "cluster: {gpu_count: [64, 128, 256]}",
            "parallelism: {tp: [1, 2, 4, 8], pp: [1, 2, 4], micro_batch: [1, 2]}",
            "objectives: [{max: tokens_per_s}, {min: cost_usd}]",
            "frontier: {group_by: [model]}",
            "output: {points: all}",
            "");

    private static SparkSession spark;
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        // the CLI's own builder: local, no web UI, bound to 127.0.0.1
        spark = SparkSessions.builder("CalibratedSweepTest", "local[2]", new SparkConf()).getOrCreate();
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static SweepJob.RunResult run(SweepSpec spec, String runId) {
        return SweepJob.run(spark, spec, new SweepJob.Options(dir.resolve("out").toString(), runId, 2, 60_000, 0.1),
                new PrintStream(new ByteArrayOutputStream()));
    }

    private static List<Row> table(String name, String runId) {
        return spark.read().parquet(dir.resolve("out").resolve(name).toString()).where("run_id = '" + runId + "'")
                .collectAsList();
    }

    private static Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    @Test
    void aSweepAppliesItsProfileRecordsItAndCarriesItsIntervals() throws Exception {
        Path profile = write("sweeps/profiles/mine.yaml", PROFILE);
        Path calibrated = write("sweeps/calibrated.yaml", SWEEP + "calibration: profiles/mine.yaml\n");
        Path plain = write("sweeps/plain.yaml", SWEEP);
        SweepSpec spec = SweepLoader.load(calibrated);
        run(spec, "cal");
        run(SweepLoader.load(plain), "plain");

        Row manifest = table("runs", "cal").get(0);
        String sha = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(Files.readAllBytes(profile)));
        assertEquals(profile.normalize() + " sha256:" + sha, manifest.getAs("calibration"));
        assertEquals("test-fit", manifest.getAs("calibration_code_version"));
        assertEquals(0.8, (double) manifest.getAs("interval_coverage_fraction"), 0);
        Row plainManifest = table("runs", "plain").get(0);
        assertTrue(plainManifest.isNullAt(plainManifest.fieldIndex("calibration")));

        List<Row> points = table("points", "cal");
        List<Row> before = table("points", "plain");
        int ok = 0;
        int hopperSlower = 0;
        for (Row r : points) {
            if (!"ok".equals(r.getAs("status"))) {
                continue;
            }
            ok++;
            double t = r.getAs("step_time_s");
            double lo = r.getAs("step_time_s_lo");
            double hi = r.getAs("step_time_s_hi");
            // the profile's interval: ln(predicted / measured) in [-0.2, 0.1] <=> measured in [t e^-0.1, t e^0.2]
            assertTrue(lo <= t && t <= hi, r.toString());
            assertEquals(t * Math.exp(-0.1), lo, 1e-9 * t);
            assertEquals(t * Math.exp(0.2), hi, 1e-9 * t);
            double rate = r.getAs("tokens_per_s");
            assertTrue((double) r.getAs("tokens_per_s_lo") <= rate && rate <= (double) r.getAs("tokens_per_s_hi"));
            assertEquals("megatron-bridge|" + ("h100-sxm".equals(r.getAs("chip")) ? "hopper" : "ampere"),
                    r.getAs("interval_group"));
            Row same = find(before, r);
            if ("h100-sxm".equals(r.getAs("chip")) && "ok".equals(same.getAs("status"))) {
                // the profile's 0.5 GEMM share (bundled: higher) slows every Hopper plan, so the best one too
                assertTrue(t > (double) same.getAs("step_time_s"), r + " vs " + same);
                hopperSlower++;
            } else if ("a100-80g".equals(r.getAs("chip"))) {
                assertEquals((double) same.getAs("step_time_s"), t, 0, "the profile touches Hopper only");
            }
        }
        assertTrue(ok > 10 && hopperSlower > 5, ok + " ok points, " + hopperSlower + " slower on Hopper");

        List<Row> frontier = table("frontier", "cal");
        assertFalse(frontier.isEmpty());
        for (Row r : frontier) {
            assertFalse(r.isNullAt(r.fieldIndex("robust")), r.toString());
            assertTrue((double) r.getAs("step_time_s_lo") <= (double) r.getAs("step_time_s"));
        }
    }

    /** The row of the same grid point (keep best: one per point). */
    private static Row find(List<Row> rows, Row like) {
        for (Row r : rows) {
            if (r.getAs("point_index").equals(like.getAs("point_index"))) {
                return r;
            }
        }
        throw new AssertionError("no row like " + like);
    }

    /**
     * Two frontier rows of different interval groups: A is faster, B cheaper. B's best tokens/s (114) beats A's worst
     * (80) and B is cheaper anyway, so B could dominate A within the intervals: A is not robust. A cannot dominate B
     * (it costs more whatever the error): B is. A clear lead (C at 200 [190, 210] tokens/s over D at 100 [95, 105])
     * survives; and within one interval group (shared error) nominal dominance applies.
     */
    @Test
    void theRobustFlagFollowsTheIntervals() {
        SweepSpec spec = new SweepLoader(io.ridgeline.engine.workload.ModelCatalog.bundled(),
                io.ridgeline.engine.hardware.HardwareCatalog.bundled()).parse("robust.yaml",
                SWEEP.replace("frontier: {group_by: [model]}", "frontier: {group_by: []}"));
        assertEquals(List.of(false, true), robust(spec, new double[][]{{100, 80, 120, 10}, {95, 76, 114, 9}},
                "a|hopper", "b|hopper"));
        assertEquals(List.of(true, true), robust(spec, new double[][]{{200, 190, 210, 10}, {100, 95, 105, 9}},
                "c|hopper", "d|hopper"));
        assertEquals(List.of(true, true), robust(spec, new double[][]{{100, 80, 120, 10}, {95, 76, 114, 9}},
                "a|hopper", "a|hopper"));
    }

    /** Robust flags of rows {tokens/s, its low, its high, cost} in the frontier's order (by tokens/s, fastest first). */
    private static List<Boolean> robust(SweepSpec spec, double[][] rows, String... groups) {
        FrontierFold fold = new FrontierFold();
        IntervalEnds ends = new IntervalEnds(spec.objectives());
        double[] objective = new double[2];
        double[] best = new double[2];
        for (int i = 0; i < rows.length; i++) {
            ResultRow p = new ResultRow(Grid.PLAN + 1);
            p.set(ResultRow.Count.PLAN_INDEX, i).set(ResultRow.Text.INTERVAL_GROUP, groups[i])
                    .set(Metric.TOKENS_PER_S, rows[i][0]).set(Metric.TOKENS_PER_S_LO, rows[i][1])
                    .set(Metric.TOKENS_PER_S_HI, rows[i][2]).set(Metric.COST_USD, rows[i][3]);
            objective[0] = -rows[i][0];
            objective[1] = rows[i][3];
            ends.best(p.metrics(), best);
            fold.offer(p, 0, objective, best);
        }
        List<Row> frontier = SweepJob.frontierRows(spec, fold);
        assertEquals(rows.length, frontier.size(), "both rows are on the nominal frontier");
        int at = ResultsSchema.FRONTIER.index("robust");
        return frontier.stream().map(r -> r.getBoolean(at)).toList();
    }

    @Test
    void badCalibrationValuesFailWithFileLineFieldExpectedAndFound() throws Exception {
        Path missing = write("bad/missing.yaml", SWEEP + "calibration: nowhere.yaml\n");
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> SweepLoader.load(missing));
        assertTrue(e.getMessage().contains(missing + ":10:14: calibration: expected a readable calibration profile"),
                e.getMessage());
        assertTrue(e.getMessage().contains("found 'nowhere.yaml' (no such file: " + dir.resolve("bad/nowhere.yaml")),
                e.getMessage());

        Path notText = write("bad/number.yaml", SWEEP + "calibration: [a, b]\n");
        e = assertThrows(InvalidInputException.class, () -> SweepLoader.load(notText));
        assertTrue(e.getMessage().contains(notText + ":10:14: calibration: expected"), e.getMessage());

        Path profile = write("bad/broken.yaml", PROFILE.replace("families.hopper.gemm_peak_fraction",
                "families.hoper.gemm_peak_fraction"));
        SweepSpec spec = SweepLoader.load(write("bad/broken-sweep.yaml", SWEEP + "calibration: broken.yaml\n"));
        e = assertThrows(InvalidInputException.class, () -> SweepCalibration.profile(spec));
        assertTrue(e.getMessage().contains(profile.normalize() + ":4:18: calibration.parameters[0].parameter: "
                + "expected a calibratable catalogue path"), e.getMessage());
        assertTrue(e.getMessage().contains("found 'families.hoper.gemm_peak_fraction'"), e.getMessage());
        // the estimate (which the CLI runs before Spark) fails the same way: nothing starts with a bad profile
        assertThrows(InvalidInputException.class, () -> SweepEstimate.of(spec, 1, 0.1));
        assertNotEquals(null, spec.calibration());
    }
}
