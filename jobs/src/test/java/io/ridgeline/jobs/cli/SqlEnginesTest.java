package io.ridgeline.jobs.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code sql --engine spark} answers like the DuckDB path over the same results, and only reads. */
class SqlEnginesTest {
    @TempDir
    Path dir;

    /** Every table, a join, an aggregate, booleans, nulls, text that needs quoting, and the run_id column. */
    static final String QUERY = "select f.run_id, f.frontier_group, f.model, f.chip, f.gpu_count, f.tp, f.pp, f.dp, "
            + "f.sp, f.tokens_per_s, f.tpot_s, f.usd_per_million_tokens, r.sweep_name, r.grid_points, "
            + "(select count(*) from points p where p.run_id = f.run_id and p.status = 'ok') as ok_points, "
            + "'a,b' as quoted from frontier f join runs r on f.run_id = r.run_id "
            + "order by f.run_id, f.frontier_group, f.chip, f.gpu_count, f.tp, f.pp, f.dp, f.global_batch, "
            + "f.kv_cache_precision, f.usd_per_million_tokens";

    @Test
    void sparkSqlGivesTheRowsAndFormatsOfDuckDb() throws Exception {
        String out = SweptResults.get().toString();
        Path duck = dir.resolve("duck.csv");
        Path spark = dir.resolve("spark.csv");
        CliRun d = CliRun.of("sql", "--out", out, "--csv", duck.toString(), QUERY);
        assertEquals(0, d.code(), d.err());
        CliRun s = CliRun.of("sql", "--engine", "spark", "--out", out, "--csv", spark.toString(), QUERY);
        assertEquals(0, s.code(), s.err());
        List<String> a = Files.readAllLines(duck);
        List<String> b = Files.readAllLines(spark);
        assertTrue(a.size() > 40, "frontier rows of three runs: " + a.size());
        assertEquals(a.get(0), b.get(0), "same header");
        assertEquals(a.size(), b.size(), "same row count");
        for (int i = 1; i < a.size(); i++) {
            assertEquals(fields(a.get(i)), fields(b.get(i)), "row " + i);
        }
        assertEquals(a, b, "byte-identical CSV");
        String textQuery = "select model, chip, gpu_count, tokens_per_s, mfu_fraction, sp from frontier where "
                + "run_id = '"
                + SweptResults.LATEST + "' order by model, gpu_count";
        CliRun dt = CliRun.of("sql", "--out", out, "--max-rows", "4", textQuery);
        CliRun st = CliRun.of("sql", "--engine", "spark", "--out", out, "--max-rows", "4", textQuery);
        assertEquals(0, st.code(), st.err());
        assertTrue(dt.out().contains("(15 rows, 4 shown)"), dt.out());
        assertEquals(dt.out(), st.out(), "same printed table");
    }

    /** CSV fields, with quoted commas kept inside their field. */
    private static List<String> fields(String line) {
        List<String> f = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                f.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        f.add(cur.toString());
        return f;
    }

    @Test
    void sparkSqlRefusesStatementsThatWriteAndWritesNothing() throws Exception {
        String out = SweptResults.get().toString();
        Path target = dir.resolve("written");
        String[][] cases = {
                {"insert overwrite directory '" + target + "' select * from runs", "(InsertIntoDir)"},
                {"with x as (select * from runs) insert into runs select * from x", "(InsertIntoStatement)"},
                {"create table t using parquet location '" + target + "' as select 1 as a", "(CreateTableAsSelect)"},
                {"select reflect('java.lang.System', 'getProperty', 'user.home')", "a call of reflect()"},
                {"select * from runs where exists (select java_method('java.lang.System', 'getenv', 'HOME'))",
                        "a call of java_method()"}};
        for (String[] c : cases) {
            CliRun r = CliRun.of("sql", "--engine", "spark", "--out", out, c[0]);
            assertEquals(2, r.code(), c[0] + ": " + r.out());
            assertTrue(r.err().startsWith("sql: QUERY: expected a read-only query (SELECT, WITH ... SELECT, VALUES, "
                    + "TABLE) for --engine spark, found "), r.err());
            assertTrue(r.err().contains(c[1]), r.err());
        }
        assertFalse(Files.exists(target), "nothing was written");
        CliRun bad = CliRun.of("sql", "--engine", "spark", "--out", out, "select nope from frontier");
        assertEquals(2, bad.code());
        assertTrue(bad.err().startsWith("sql: QUERY: expected a valid Spark SQL query over [points, frontier, runs], "
                + "found [UNRESOLVED_COLUMN"), bad.err());
        CliRun engine = CliRun.of("sql", "--engine", "sparkk", "--out", out, "select 1");
        assertTrue(engine.err().startsWith("--engine: engine: expected one of [duckdb, spark] (did you mean "
                + "'spark'?), found 'sparkk'"), engine.err());
        CliRun none = CliRun.of("sql", "--engine", "spark", "--out", dir.resolve("nowhere").toString(), "select 1");
        assertEquals(2, none.code());
        assertTrue(none.err().contains("--out: out: expected an output directory of ridgeline sweep, found no "
                + "directory"), none.err());
    }
}
