package io.ridgeline.jobs.cli;

import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.jobs.sweep.RunCommitter;
import io.ridgeline.schema.ColumnType;
import io.ridgeline.schema.ResultsSchema;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CLI without Spark: bad input fails before any Spark work; sql and diff over DuckDB-written fixtures. */
class CliTest {
    @TempDir
    Path dir;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    /** picocli formats help texts with String.format: a single '%' prints a warning and the raw text instead. */
    @Test
    void everyCommandsHelpRendersWithoutAWarning() {
        PrintStream old = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        StringBuilder usage = new StringBuilder();
        try {
            appendUsage(RidgelineCli.commandLine(), usage);
        } finally {
            System.setErr(old);
        }
        assertEquals("", err.toString(StandardCharsets.UTF_8));
        assertTrue(usage.indexOf("output.sensitivity (the ranked +10% table)") >= 0, usage.toString());
        assertTrue(usage.indexOf("(10% scale)") >= 0, usage.toString());
    }

    private static void appendUsage(CommandLine command, StringBuilder out) {
        out.append(command.getUsageMessage());
        for (CommandLine sub : command.getSubcommands().values()) {
            appendUsage(sub, out);
        }
    }

    @Test
    void invalidSweepExitsWithCode2AndEveryErrorBeforeSpark() throws Exception {
        Path f = dir.resolve("bad.yaml");
        Files.writeString(f, "name: bad\nmodels: [gpt3-175]\nphases: []\nhardware: {presets: [h100]}\n");
        CliRun o = run("sweep", f.toString(), "--out", dir.resolve("out").toString());
        assertEquals(2, o.code());
        assertTrue(o.err().contains(f + ":2:10: models[0]: expected one of ["), o.err());
        assertTrue(o.err().contains("(did you mean 'gpt3-175b'?), found 'gpt3-175'"), o.err());
        assertTrue(o.err().contains(f + ":3:9: phases: expected a non-empty list, found an empty list"), o.err());
        assertTrue(o.err().contains(f + ":1:1: cluster: expected a mapping with gpu_count, found no 'cluster' key"),
                o.err());
        assertTrue(o.err().contains("; nothing was run."), o.err());
        assertFalse(Files.exists(dir.resolve("out")), "no output directory for an invalid sweep");
    }

    @Test
    void gridsAboveTheLimitNeedYes() throws Exception {
        Path f = dir.resolve("big.yaml");
        Files.writeString(f, "name: big\nmodels: [llama2-7b]\nphases: [{phase: training, seq_len: [2048], "
                + "global_batch: [512]}]\nhardware: {presets: [a100-80g, h100-sxm]}\n"
                + "cluster: {gpu_count: [64, 128, 256]}\nparallelism: {tp: [8], pp: [1]}\n");
        CliRun o = run("sweep", f.toString(), "--max-points", "5", "--out", dir.resolve("out").toString());
        assertEquals(2, o.code());
        assertTrue(o.err().contains(f + ": (grid): expected at most 5 points and 30.0 estimated minutes, or --yes, "
                + "found 6 points, about "), o.err());
        assertTrue(o.out().contains("grid: 6 points = 1 models x 1 phase settings x 2 chips"), o.out());
        CliRun dry = run("sweep", f.toString(), "--dry-run");
        assertEquals(0, dry.code(), dry.err());
        assertTrue(dry.out().contains("plans: 18 engine evaluations (search, keep best)"), dry.out());
        assertTrue(dry.out().contains("dry run: the sweep is valid"), dry.out());
    }

    @Test
    void aSecondSweepOfAHeldRunIdFailsInOneLineBeforeSpark() throws Exception {
        Path f = dir.resolve("n.yaml");
        Files.writeString(f, "name: nightly\nmodels: [llama2-7b]\nphases: [{phase: training, seq_len: [2048], "
                + "global_batch: [512]}]\nhardware: {presets: [a100-80g]}\ncluster: {gpu_count: [64]}\n"
                + "parallelism: {tp: [8], pp: [1]}\n");
        Path out = dir.resolve("out");
        // A live run of this id: this JVM holds the lock, as another `sweep --run-id nightly-20260101` would.
        RunCommitter holder = RunCommitter.begin(new Configuration(), out.toString(), "nightly-20260101");
        try {
            long t = System.nanoTime();
            CliRun o = run("sweep", f.toString(), "--out", out.toString(), "--run-id", "nightly-20260101");
            assertEquals(1, o.code(), o.err());
            assertEquals(1, o.err().lines().count(), "one line, no stack trace: " + o.err());
            assertTrue(o.err().startsWith("run id 'nightly-20260101' is in use by pid " + ProcessHandle.current().pid()
                    + " on host "), o.err());
            assertTrue(o.err().contains("(lock " + out.resolve("_staging/run_id=nightly-20260101.lock") + "); wait "
                    + "for it to finish or choose another --run-id"), o.err());
            assertFalse(o.out().contains("committed"), o.out());
            assertTrue((System.nanoTime() - t) / 1e9 < 30, "failed before starting Spark");
        } finally {
            holder.abort();
        }
    }

    @Test
    void everyMetricIsADoubleColumnOfThePointsTableExceptCounts() {
        for (Metric m : Metric.values()) {
            ColumnType t = ResultsSchema.POINTS.column(m.column()).type();
            boolean count = m == Metric.GPU_COUNT || m == Metric.MAX_BATCH || m == Metric.PREFILL_GPUS
                    || m == Metric.DECODE_GPUS;
            assertEquals(count ? ColumnType.INT : ColumnType.DOUBLE, t, m.column());
        }
    }

    /** Two runs' frontiers and manifests written by DuckDB in the layout the sweep job commits. */
    private Path fixtures() throws Exception {
        Path out = dir.resolve("res");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            String cols = "SELECT * FROM (VALUES ";
            String tail = ") t(frontier_group, model, phase, seq_len, global_batch, chip, gpu_count, scale_out, "
                    + "scale_out_gbit_s, scale_up_domain, tp, pp, dp, cp, ep, sp, vpp, zero, micro_batch, recompute, "
                    + "precision, tokens_per_s, cost_usd)";
            String stay = "('model=m', 'm', 'training', 2048, 512, 'h100-sxm', 64, 'ndr', 400.0, 8, 8, 1, 8, 1, 1, "
                    + "true, 1, 1, 1, 'selective', 'bf16', ";
            String gone = "('model=m', 'm', 'training', 2048, 512, 'a100-80g', 64, 'hdr', 200.0, 8, 8, 1, 8, 1, 1, "
                    + "true, 1, 1, 1, 'selective', 'bf16', 50.0, 1.0)";
            String fresh = "('model=m', 'm', 'training', 2048, 512, 'b200', 64, 'xdr', 800.0, 8, 8, 1, 8, 1, 1, "
                    + "true, 1, 1, 1, 'selective', 'bf16', 300.0, 3.0)";
            for (String[] run : new String[][]{{"a", stay + "100.0, 2.0), " + gone}, {"b", stay + "110.0, 2.0), "
                    + fresh}}) {
                Files.createDirectories(out.resolve("frontier/run_id=" + run[0]));
                Files.createDirectories(out.resolve("runs/run_id=" + run[0]));
                st.execute("COPY (" + cols + run[1] + tail + ") TO '" + out.resolve("frontier/run_id=" + run[0]
                        + "/part-0.parquet") + "' (FORMAT parquet)");
                st.execute("COPY (SELECT 'm' AS sweep_name, 'max tokens_per_s,min cost_usd' AS objectives) TO '"
                        + out.resolve("runs/run_id=" + run[0] + "/part-0.parquet") + "' (FORMAT parquet)");
            }
        }
        return out;
    }

    @Test
    void diffListsAppearedDisappearedAndMovedPoints() throws Exception {
        Path out = fixtures();
        CliRun o = run("diff", "a", "b", "--out", out.toString(), "--tolerance", "0.05");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("(3 rows)"), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("appeared") && l.contains("b200")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("disappeared") && l.contains("a100-80g")), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("moved") && l.contains("h100-sxm")), o.out());
        CliRun loose = run("diff", "a", "b", "--out", out.toString(), "--tolerance", "0.2");
        assertTrue(loose.out().contains("(2 rows)"), "a 10% move is within a 20% tolerance: " + loose.out());
    }

    @Test
    void diffSuggestsTheClosestRunId() throws Exception {
        CliRun o = run("diff", "a", "bb", "--out", fixtures().toString());
        assertEquals(2, o.code());
        assertTrue(o.err().contains("RUN_B: expected a committed run id: one of [a, b] (did you mean 'b'?), found "
                + "'bb'"), o.err());
    }

    @Test
    void sqlQueriesTheTablesAndExportsCsv() throws Exception {
        Path out = fixtures();
        CliRun o = run("sql", "--out", out.toString(), "select run_id, count(*) as n from frontier group by run_id "
                + "order by run_id");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("a       2"), o.out());
        Path csv = dir.resolve("f.csv");
        assertEquals(0, run("sql", "--out", out.toString(), "--csv", csv.toString(),
                "select chip, tokens_per_s from frontier where run_id = 'b' order by chip").code());
        assertEquals("chip,tokens_per_s\nb200,300.0\nh100-sxm,110.0\n", Files.readString(csv));
        CliRun bad = run("sql", "--out", out.toString(), "select nope from frontier");
        assertEquals(2, bad.code());
        assertTrue(bad.err().startsWith("sql: QUERY: expected a valid query over [frontier, runs], found "), bad.err());
    }

    @Test
    void sqlRefusesEveryStatementThatIsNotOneQueryBeforeAnythingRuns() throws Exception {
        Path out = fixtures();
        Path x = dir.resolve("x.csv");
        CliRun copy = run("sql", "--out", out.toString(), "copy (select 1) to '" + x + "'");
        assertEquals(2, copy.code());
        assertEquals("sql: QUERY: expected one read-only query (SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW or "
                + "SUMMARIZE; sql writes no files and changes no settings), found a statement that is not a query: "
                + "'copy (select 1) to '" + x + "''\n1 error; nothing was run.\n", copy.err());
        assertFalse(Files.exists(x), "the copy wrote no file");
        // DuckDB's JDBC prepare runs every statement but the last: a copy first must be refused unprepared.
        Path y = dir.resolve("y.csv");
        Path z = dir.resolve("z.csv");
        for (String q : List.of("copy (select 3) to '" + z + "'; select 1", "select 1; copy (select 2) to '" + y + "'",
                "attach ':memory:' as m2", "install httpfs", "load json", "set threads = 1", "pragma enable_profiling",
                "create table t as select 1", "export database '" + dir.resolve("exp") + "'", "checkpoint",
                "explain select 1", "call pragma_version()", "use memory")) {
            CliRun o = run("sql", "--out", out.toString(), q);
            assertEquals(2, o.code(), q);
            assertTrue(o.err().startsWith("sql: QUERY: expected one read-only query"), q + ": " + o.err());
        }
        assertFalse(Files.exists(y) || Files.exists(z) || Files.exists(dir.resolve("exp")), "nothing was written");
        CliRun ok = run("sql", "--out", out.toString(), "select count(*) as n from frontier");
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("(1 row)"), ok.out());
        for (String q : List.of("describe frontier", "summarize runs", "from frontier select chip",
                "with t as (select chip from frontier) select * from t", "values (1, 2)", "show tables")) {
            CliRun o = run("sql", "--out", out.toString(), q);
            assertEquals(0, o.code(), q + ": " + o.err());
        }
    }

    @Test
    void csvProblemsNameTheFlagAndQueryProblemsTheQuery() throws Exception {
        Path out = fixtures();
        Path folder = Files.createDirectories(dir.resolve("folder"));
        CliRun d = run("sql", "--out", out.toString(), "--csv", folder.toString(), "select 1");
        assertEquals(2, d.code());
        assertEquals("--csv: csv: expected a file path to write the CSV to (" + folder + "), found a directory\n"
                + "1 error; nothing was run.\n", d.err());
        Path file = Files.writeString(dir.resolve("plain"), "x");
        CliRun under = run("sql", "--out", out.toString(), "--csv", file.resolve("a.csv").toString(), "select 1");
        assertEquals(2, under.code());
        assertTrue(under.err().startsWith("--csv: csv: expected a file path to write the CSV to ("
                + file.resolve("a.csv") + "), found a path under " + file + ", which is not a directory"), under.err());
        Path csv = dir.resolve("q.csv");
        CliRun q = run("sql", "--out", out.toString(), "--csv", csv.toString(), "select nope from frontier");
        assertEquals(2, q.code());
        assertTrue(q.err().startsWith("sql: QUERY: expected a valid query over [frontier, runs], found "), q.err());
        assertFalse(Files.exists(csv), "no file for a failed query");
    }
}
