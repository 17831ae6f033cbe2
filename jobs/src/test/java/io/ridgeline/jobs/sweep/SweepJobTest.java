package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.pareto.Dominance;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.schema.ResultsSchema;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Real Spark local[2] and real Parquet; one session for the class (each start costs seconds). */
class SweepJobTest {
    private static SparkSession spark;
    @TempDir
    static Path out;

    static final String SWEEP = String.join("\n",
            "name: small",
            "models: [gpt3-175b, llama2-13b]",
            "phases: [{phase: training, seq_len: [2048], global_batch: [512, 1024]}]",
            "hardware: {presets: [a100-80g, h100-sxm, b200]}",
            "network: {scale_out: [default, eth400]}",
            "cluster: {gpu_count: [64, 128, 256]}",
            "parallelism: {tp: [2, 4, 8], pp: [1, 2, 4, 8], micro_batch: [1, 2]}",
            "objectives: [{max: tokens_per_s}, {min: cost_usd}, {min: energy_per_token_j}]",
            "frontier: {group_by: [model, global_batch]}",
            "output: {points: all}",
            "");

    @BeforeAll
    static void start() {
        spark = SparkSession.builder().master("local[2]").appName("SweepJobTest").config("spark.ui.enabled", "false")
                .config("spark.driver.host", "127.0.0.1").config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static SweepSpec spec(String text) {
        return new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled()).parse("small.yaml", text);
    }

    private static SweepJob.RunResult run(SweepSpec spec, String runId, int partitions) {
        return SweepJob.run(spark, spec, new SweepJob.Options(out.toString(), runId, partitions, 60_000, 0.1),
                new PrintStream(new ByteArrayOutputStream()));
    }

    private static Dataset<Row> table(String name, String runId) {
        return spark.read().parquet(out.resolve(name).toString()).where("run_id = '" + runId + "'");
    }

    private static List<String> rowsAsText(Dataset<Row> df) {
        List<String> rows = new ArrayList<>();
        for (Row r : df.drop("run_id").collectAsList()) {
            rows.add(r.toString());
        }
        rows.sort(null);
        return rows;
    }

    @Test
    void sameSweepGivesIdenticalFrontierRowsWhateverThePartitioning() {
        SweepSpec s = spec(SWEEP);
        SweepJob.RunResult a = run(s, "det-a", 3);
        SweepJob.RunResult b = run(s, "det-b", 7);
        List<String> fa = rowsAsText(table("frontier", "det-a"));
        List<String> fb = rowsAsText(table("frontier", "det-b"));
        assertFalse(fa.isEmpty());
        assertEquals(fa, fb);
        assertEquals(rowsAsText(table("points", "det-a")), rowsAsText(table("points", "det-b")));
        assertEquals(a.frontierRows(), fa.size());
        assertEquals(b.gridPoints(), table("points", "det-b").count());
    }

    @Test
    void frontierEqualsABruteForceSkylineOfThePointsTable() {
        SweepSpec s = spec(SWEEP);
        run(s, "pareto", 0);
        List<Row> ok = table("points", "pareto").where("status = 'ok'").select("point_index", "plan_index",
                "model", "global_batch", "tokens_per_s", "cost_usd", "energy_per_token_j").collectAsList();
        assertTrue(ok.size() > 10, "a frontier over a handful of points proves little: " + ok.size());
        Map<String, List<Row>> groups = new HashMap<>();
        for (Row r : ok) {
            groups.computeIfAbsent(r.getString(2) + "/" + r.getInt(3), k -> new ArrayList<>()).add(r);
        }
        Set<String> expected = new TreeSet<>();
        for (List<Row> g : groups.values()) {
            for (Row r : g) {
                boolean dominated = false;
                for (Row o : g) {
                    dominated |= Dominance.dominates(vector(o), vector(r));
                }
                if (!dominated) {
                    expected.add(r.getLong(0) + ":" + r.getInt(1));
                }
            }
        }
        Set<String> actual = new TreeSet<>();
        for (Row r : table("frontier", "pareto").select("point_index", "plan_index").collectAsList()) {
            actual.add(r.getLong(0) + ":" + r.getInt(1));
        }
        assertEquals(expected, actual);
    }

    private static double[] vector(Row r) {
        return new double[]{-r.getDouble(4), r.getDouble(5), r.getDouble(6)};
    }

    @Test
    void rerunReplacesItsRunAndANewRunAddsOne() throws Exception {
        SweepSpec s = spec(SWEEP);
        SweepJob.RunResult first = run(s, "again", 0);
        run(s, "again", 5);
        run(s, "other", 0);
        Dataset<Row> runs = spark.read().parquet(out.resolve("runs").toString());
        assertEquals(1, runs.where("run_id = 'again'").count());
        assertEquals(1, runs.where("run_id = 'other'").count());
        assertEquals(first.gridPoints(), table("points", "again").count(), "no rows of the first attempt left");
        Row manifest = runs.where("run_id = 'again'").collectAsList().get(0);
        assertEquals("small", manifest.getAs("sweep_name"));
        assertEquals(s.specSha256(), manifest.getAs("spec_sha256"));
        assertEquals(ResultsSchema.VERSION, (int) manifest.getAs("schema_version"));
        long statusSum = (long) manifest.getAs("count_ok") + (long) manifest.getAs("count_memory_capacity")
                + (long) manifest.getAs("count_plan_shape") + (long) manifest.getAs("count_gpu_count")
                + (long) manifest.getAs("count_no_valid_plan") + (long) manifest.getAs("count_constraint");
        assertEquals(first.gridPoints(), statusSum);
        assertTrue((long) manifest.getAs("evaluations") > first.gridPoints());
        try (Stream<Path> staged = Files.list(out.resolve(RunCommitter.STAGING))) {
            assertEquals(0, staged.count(), "no staging left after commits");
        }
        assertFalse(new File(out.toFile(), RunCommitter.TRASH).exists() && new File(out.toFile(),
                RunCommitter.TRASH).list().length > 0);
    }

    /**
     * Two runs of one sweep started in the same second (the same instant, as two shells would) get distinct default
     * ids, run concurrently on one Spark context, and both commit every row.
     */
    @Test
    void twoSameNameSweepsStartedInTheSameSecondBothCommitAllRows() throws Exception {
        SweepSpec s = spec(SWEEP);
        java.time.Instant now = java.time.Instant.now();
        String idA = RunIds.generate(s.name(), now);
        String idB = RunIds.generate(s.name(), now);
        assertTrue(!idA.equals(idB), idA);
        assertEquals(idA.substring(0, idA.length() - 6), idB.substring(0, idB.length() - 6), "same second");
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            var a = pool.submit(() -> run(s, idA, 2));
            var b = pool.submit(() -> run(s, idB, 2));
            assertEquals(a.get().gridPoints(), table("points", idA).count());
            assertEquals(b.get().gridPoints(), table("points", idB).count());
        } finally {
            pool.shutdownNow();
        }
        assertEquals(rowsAsText(table("points", idA)), rowsAsText(table("points", idB)));
        assertEquals(rowsAsText(table("frontier", idA)), rowsAsText(table("frontier", idB)));
        Dataset<Row> runs = spark.read().parquet(out.resolve("runs").toString());
        assertEquals(1, runs.where("run_id = '" + idA + "'").count());
        assertEquals(1, runs.where("run_id = '" + idB + "'").count());
    }

    /** total_s is one measurement from the command's start: the manifest holds what the console prints. */
    @Test
    void theManifestsTotalIsTheResultsTotalCountedFromTheCommandsStart() {
        SweepSpec s = spec(SWEEP.replace("points: all", "points: none"));
        long commandStart = System.nanoTime() - 5_000_000_000L; // validation and Spark start took 5 s, say
        SweepJob.RunResult r = SweepJob.run(spark, s, new SweepJob.Options(out.toString(), "total", 0, 60_000, 0.1,
                commandStart, java.time.Instant.now().minusSeconds(5)), new PrintStream(new ByteArrayOutputStream()));
        Row manifest = spark.read().parquet(out.resolve("runs").toString()).where("run_id = 'total'").first();
        assertEquals(r.totalSeconds(), (double) manifest.getAs("total_s"), 0.0);
        assertTrue(r.totalSeconds() > 5 && r.totalSeconds() > r.evaluateSeconds(), r.totalSeconds() + " s");
        assertEquals(io.ridgeline.engine.cost.TcoParameters.DEFAULT_USD_PER_KWH, (double) manifest.getAs(
                "cost_usd_per_kwh"), 0.0, "the defaults, as resolved, are recorded");
        assertEquals(0.0, (double) manifest.getAs("cost_tokens"), 0.0);
        assertEquals("[]", manifest.getAs("cost_fabrics_json"));
    }

    @Test
    void pointsPolicyNoneStillWritesTheFrontierAndAnEmptyPointsTable() {
        SweepJob.RunResult r = run(spec(SWEEP.replace("points: all", "points: none")), "none", 0);
        assertEquals(0, table("points", "none").count());
        assertEquals(0, r.pointsRows());
        assertTrue(table("frontier", "none").count() > 0);
        assertEquals(r.frontierRows(), table("frontier", "none").count());
    }

    static final String INFERENCE = String.join("\n",
            "name: inf",
            "models: [llama2-7b, llama2-70b]",
            "phases: [{phase: inference, batch: [1, 64], input_tokens: [1024], output_tokens: [256],",
            "          kv_cache_precision: [bf16, fp8]}]",
            "hardware:",
            "  presets: [a100-80g]",
            "  derived: [{name: d, node: [3nm], dies: 2, die_area_mm2: 800, power_w: 1000, dram: hbm3e, stacks: 8}]",
            "network: {topology: [none, {kind: fat-tree, oversubscription: 4}]}",
            "cluster: {gpu_count: [8]}",
            "parallelism: {tp: [1, 2, 4, 8], pp: [1]}",
            "objectives: [{min: tpot_s}, {min: usd_per_million_tokens}]",
            "frontier: {group_by: [model, kv_cache_precision]}",
            "output: {points: all}",
            "");

    @Test
    void inferenceSweepWritesInferenceRowsDeterministically() {
        SweepSpec spec = spec(INFERENCE);
        SweepJob.RunResult a = run(spec, "inf-a", 2);
        SweepJob.RunResult b = run(spec, "inf-b", 3);
        assertEquals(2L * 4 * 2 * 2, a.gridPoints());
        assertEquals(rowsAsText(table("points", "inf-a").orderBy("point_index", "plan_index")),
                rowsAsText(table("points", "inf-b").orderBy("point_index", "plan_index")));
        assertEquals(rowsAsText(table("frontier", "inf-a")), rowsAsText(table("frontier", "inf-b")));
        List<Row> ok = table("points", "inf-a").where("status = 'ok'").collectAsList();
        assertFalse(ok.isEmpty());
        for (Row r : ok) {
            assertEquals("inference", r.getAs("phase"));
            assertEquals(1280, (int) r.getAs("seq_len"));
            assertTrue((double) r.getAs("ttft_s") > 0 && (double) r.getAs("tpot_s") > 0);
            assertTrue((int) r.getAs("max_batch") >= 1);
            assertTrue((double) r.getAs("usd_per_million_tokens") > 0);
            assertTrue(r.isNullAt(r.fieldIndex("step_time_s")));
        }
        Row derived = table("points", "inf-a").where("chip like 'd-%'").first();
        assertEquals("3nm", derived.getAs("logic_node"));
        assertEquals("hbm3e", derived.getAs("dram_type"));
        assertEquals(8, (int) derived.getAs("dram_stacks"));
        assertEquals(800.0, (double) derived.getAs("die_area_mm2"));
        assertEquals(1000.0, (double) derived.getAs("power_budget_w"));
        Row preset = table("points", "inf-a").where("chip = 'a100-80g'").first();
        assertEquals("hbm2e", preset.getAs("dram_type"));
        assertTrue(preset.isNullAt(preset.fieldIndex("logic_node")));
        Set<String> topologies = new TreeSet<>();
        for (Row r : table("points", "inf-a").select("topology").distinct().collectAsList()) {
            topologies.add(r.getString(0));
        }
        assertEquals(Set.of("none", "fat-tree-4:1"), topologies);
        assertTrue(table("points", "inf-a").where("topology = 'fat-tree-4:1' and fabric_capex_usd > 0").count() > 0);
    }
    /**
     * The golden frontiers are computed in-process (GoldenFrontierTest); this ties them to Spark: the inference sweep
     * of the repository, run on Spark, writes exactly the frontier rows of its golden file.
     */
    @Test
    void sparkFrontierOfTheInferenceSweepEqualsItsGoldenFile() throws Exception {
        Path file = Path.of("../sweeps/inference.yaml");
        SweepSpec s = SweepLoader.load(file);
        run(s, "golden-inference", 3);
        List<Row> written = table("frontier", "golden-inference").drop("run_id")
                .orderBy("frontier_group", "point_index", "plan_index").collectAsList();
        List<Row> expected = new ArrayList<>(GoldenFrontierTest.frontier(s));
        int group = ResultsSchema.FRONTIER.index("frontier_group");
        expected.sort(java.util.Comparator.comparing((Row r) -> r.getString(group))
                .thenComparingLong(r -> r.getLong(0)).thenComparingInt(r -> r.getInt(1)));
        assertEquals(GoldenFrontierTest.render(file.toString(), expected),
                GoldenFrontierTest.render(file.toString(), written));
        List<String> golden = Files.readAllLines(GoldenFrontierTest.GOLDEN.resolve("frontier-inference.txt"));
        assertEquals(golden.size(), GoldenFrontierTest.render(file.toString(), written).size());
    }

    /**
     * The typed writer (PointRows.emit into parquet-mr) writes exactly the rows PointRows.toRow builds: every column
     * of every row, read back through Spark, equals the toRow value computed in-process (training search with
     * infeasible plans; inference with derived chips and a topology).
     */
    @Test
    void typedPointsWriterWritesExactlyTheToRowValues() {
        for (String text : List.of(SWEEP, INFERENCE)) {
            SweepSpec spec = spec(text);
            String runId = "typed-" + spec.name() + "-" + text.length();
            run(spec, runId, 3);
            Map<String, Row> expected = new HashMap<>();
            io.ridgeline.engine.evaluation.Evaluator ev = new io.ridgeline.engine.evaluation.Evaluator(spec);
            for (long i = 0; i < ev.grid().size(); i++) {
                ev.evaluate(i, p -> expected.put(p.pointIndex() + "/" + p.planIndex(), PointRows.toRow(p)));
            }
            List<Row> written = table("points", runId).drop("run_id").collectAsList();
            assertEquals(expected.size(), written.size(), runId);
            int width = ResultsSchema.POINTS.columns().size();
            Set<String> seen = new TreeSet<>();
            for (Row w : written) {
                String key = w.getLong(0) + "/" + w.getInt(1);
                assertTrue(seen.add(key), "duplicate row " + key);
                Row e = expected.get(key);
                assertTrue(e != null, "unexpected row " + key);
                assertEquals(width, w.length());
                for (int c = 0; c < width; c++) {
                    assertEquals(e.get(c), w.get(c), runId + " row " + key + " column "
                            + ResultsSchema.POINTS.columns().get(c).name());
                }
            }
        }
    }
}
