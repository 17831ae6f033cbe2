package io.ridgeline.jobs.cli;

import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** export and plot end to end over Parquet fixtures written by DuckDB in the sweep job's layout; no Spark. */
class ReportCommandsTest {
    @TempDir
    Path dir;

    private static CliRun run(String... args) {
        return CliRun.of(args);
    }

    private static final String COLS = "frontier_group, point_index, plan_index, status, model, phase, seq_len, "
            + "global_batch, chip, gpu_count, scale_out, tp, pp, dp, cp, ep, micro_batch, recompute, precision, "
            + "step_time_s, tokens_per_s, mfu_fraction, compute_s, memory_bound_s, tp_comm_s, pp_comm_s, dp_comm_s, "
            + "bubble_s, optimizer_s, overhead_s, cluster_tdp_w, cost_usd";

    private static String row(String group, int idx, String status, String chip, int gpus, double step, double tps,
                              double tdp, double price) {
        String num = status.equals("ok") ? "" : "NULL::DOUBLE * ";
        return String.format(java.util.Locale.ROOT, "('%s', %d, 0, '%s', 'm', 'training', 2048, 512, '%s', %d, "
                + "'ndr', 2, 4, %d, 1, 1, 1, 'selective', 'bf16', %s%f, %s%f, 0.5, %f, 0.01, 0.02, 0.0, 0.03, 0.04, "
                + "0.0, 0.0, %f, %f)", group, idx, status, chip, gpus, gpus / 8, num, step, num, tps, step * 0.9,
                tdp * gpus, price * gpus);
    }

    /** Runs r1 (older) and r2: points with one infeasible row, frontier and manifest. */
    private Path results() throws Exception {
        Path out = dir.resolve("res");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:"); Statement st = c.createStatement()) {
            String[] runs = {"r1", "r2"};
            for (int k = 0; k < runs.length; k++) {
                String r = runs[k];
                String a = row("model=m", 0, "ok", "h100-sxm", 256, 26.0, 120_000, 700, 30_000);
                String b = row("model=m", 1, "ok", "b200", 512, 6.4, 489_000, 1000, 40_000);
                String bad = row("model=m", 2, "memory_capacity", "a100-80g", 64, 1, 1, 400, 15_000);
                String slow = row("model=m", 3, "ok", "h100-sxm", 512, 20.0, 150_000, 700, 30_000);
                for (String[] t : new String[][]{{"points", a + ", " + b + ", " + bad + ", " + slow},
                        {"frontier", a + ", " + b}}) {
                    Files.createDirectories(out.resolve(t[0] + "/run_id=" + r));
                    st.execute("COPY (SELECT * FROM (VALUES " + t[1] + ") v(" + COLS + ")) TO '"
                            + out.resolve(t[0] + "/run_id=" + r + "/part-0.parquet") + "' (FORMAT parquet)");
                }
                Files.createDirectories(out.resolve("runs/run_id=" + r));
                st.execute("COPY (SELECT 'm' AS sweep_name, 'max tokens_per_s,min cost_usd' AS objectives, "
                        + "TIMESTAMP '2026-01-0" + (k + 1) + " 00:00:00' AS finished_at) TO '"
                        + out.resolve("runs/run_id=" + r + "/part-0.parquet") + "' (FORMAT parquet)");
            }
        }
        return out;
    }

    @Test
    void exportWritesCsvWithUnitsAndAWorkbookForTheLatestRun() throws Exception {
        Path out = results();
        Path to = dir.resolve("exp");
        CliRun o = run("export", "--out", out.toString(), "--to", to.toString(), "--table", "frontier,points");
        assertEquals(0, o.code(), o.err());
        List<String> csv = Files.readAllLines(to.resolve("r2-frontier.csv"));
        assertEquals(3, csv.size(), "header and two frontier rows");
        assertTrue(csv.get(0).contains(",step_time_s [s],tokens_per_s [tokens/s],"), csv.get(0));
        assertTrue(csv.get(0).contains(",cost_usd [USD]"), csv.get(0));
        assertEquals(5, Files.readAllLines(to.resolve("r2-points.csv")).size(), "every point, infeasible too");
        try (InputStream in = Files.newInputStream(to.resolve("r2-tco.xlsx")); XSSFWorkbook wb = new XSSFWorkbook(in)) {
            assertEquals("Assumptions", wb.getSheetName(0));
            Sheet points = wb.getSheet("Points");
            assertEquals(3, points.getLastRowNum(), "the workbook prices feasible points only");
            assertEquals(2, wb.getSheet("Frontier").getLastRowNum());
            assertEquals("r2", wb.getSheet("About").getRow(1).getCell(1).getStringCellValue());
        }
    }

    @Test
    void exportNamesTheRunsAndSuggestsColumns() throws Exception {
        Path out = results();
        CliRun o = run("export", "--out", out.toString(), "--run", "r3", "--to", dir.resolve("x").toString());
        assertEquals(2, o.code());
        assertTrue(o.err().startsWith(out.resolve("runs") + ": --run: expected a committed run id: one of [r1, r2] "
                + "(did you mean 'r1'?), found 'r3'"), o.err());
        CliRun col = run("export", "--out", out.toString(), "--columns", "chip,tokens_per_sec", "--to",
                dir.resolve("x").toString());
        assertEquals(2, col.code());
        assertTrue(col.err().contains("--columns: columns[1]: expected a column of " + out.resolve("frontier")
                + ": one of ["), col.err());
        assertTrue(col.err().contains("(did you mean 'tokens_per_s'?), found 'tokens_per_sec'"), col.err());
        CliRun fmt = run("export", "--out", out.toString(), "--format", "xls");
        assertTrue(fmt.err().contains("--format: format[0]: expected one of [csv, xlsx] (did you mean 'xlsx'?), "
                + "found 'xls'"), fmt.err());
        assertFalse(Files.exists(dir.resolve("x")), "nothing written on invalid input");
    }

    @Test
    void plotsWritePngsOfTheRequestedSize() throws Exception {
        Path out = results();
        Path f = dir.resolve("f.png");
        CliRun o = run("plot", "frontier", "--out", out.toString(), "--run", "r1", "--png", f.toString(),
                "--width", "640", "--height", "400");
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("3 points, 2 frontier rows, 3 series"), o.out());
        BufferedImage img = ImageIO.read(f.toFile());
        assertEquals(640, img.getWidth());
        assertEquals(400, img.getHeight());
        Path b = dir.resolve("b.png");
        CliRun br = run("plot", "breakdown", "--out", out.toString(), "--png", b.toString());
        assertEquals(0, br.code(), br.err());
        assertTrue(br.out().contains("2 bars, 5 components"), br.out());
        assertEquals(1200, ImageIO.read(b.toFile()).getWidth());
        Path r = dir.resolve("r.png");
        CliRun rf = run("plot", "roofline", "--gpu", "h100-sxm", "--gemm", "4096x4096x4096", "--png", r.toString());
        assertEquals(0, rf.code(), rf.err());
        assertTrue(rf.out().contains("3 series"), rf.out());
    }

    @Test
    void plotErrorsNameTheFlagAndSuggest() throws Exception {
        Path out = results();
        CliRun x = run("plot", "frontier", "--out", out.toString(), "--y", "tokens_per_sec", "--png",
                dir.resolve("n.png").toString());
        assertEquals(2, x.code());
        assertTrue(x.err().contains("--y: y: expected a column of "
                + out.resolve("points") + ": one of ["), x.err());
        assertTrue(x.err().contains("(did you mean 'tokens_per_s'?), found 'tokens_per_sec'"), x.err());
        CliRun gpu = run("plot", "roofline", "--gpu", "h100", "--png", dir.resolve("n.png").toString());
        assertEquals(2, gpu.code());
        assertTrue(gpu.err().contains("gpu: expected one of ["), gpu.err());
        CliRun shape = run("plot", "roofline", "--gpu", "h100-sxm", "--gemm", "4096x4096", "--png",
                dir.resolve("n.png").toString());
        assertTrue(shape.err().contains("--gemm: gemm[0]: expected MxNxK with positive integers, e.g. 4096x4096x4096, "
                + "found '4096x4096'"), shape.err());
        CliRun fp4 = run("plot", "roofline", "--gpu", "a100-80g", "--precision", "fp8");
        assertTrue(fp4.err().contains("expected a format a100-80g runs natively"), fp4.err());
        assertFalse(Files.exists(dir.resolve("n.png")));
    }

    @Test
    void plotSeriesDrawsAnyQueryAndNamesBadInput() throws Exception {
        Path out = results();
        Path s = dir.resolve("s.png");
        CliRun ok = run("plot", "series", "--out", out.toString(), "--png", s.toString(), "--kind", "stacked",
                "--query", "select chip, sum(compute_s) as c, sum(dp_comm_s) as d from points where status = 'ok' "
                        + "group by chip order by chip", "--x", "chip", "--y", "c,d", "--labels", "compute,DP",
                "--width", "500", "--height", "300");
        assertEquals(0, ok.code(), ok.err());
        assertTrue(ok.out().contains("categories, 2 series"), ok.out());
        assertEquals(500, ImageIO.read(s.toFile()).getWidth());
        CliRun bad = run("plot", "series", "--out", out.toString(), "--png", dir.resolve("n.png").toString(),
                "--query", "select chip from nowhere", "--x", "chip", "--y", "c");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("--query: query: expected a SQL query over the views"), bad.err());
        CliRun col = run("plot", "series", "--out", out.toString(), "--png", dir.resolve("n.png").toString(),
                "--query", "select chip, tokens_per_s from points", "--x", "chip", "--y", "tokens_per_sec");
        assertEquals(2, col.code());
        assertTrue(col.err().contains("did you mean 'tokens_per_s'?"), col.err());
        CliRun kind = run("plot", "series", "--out", out.toString(), "--query", "select 1 as a", "--x", "a",
                "--y", "a", "--kind", "pie");
        assertEquals(2, kind.code());
        assertTrue(kind.err().contains("--kind"), kind.err());
        assertFalse(Files.exists(dir.resolve("n.png")));
    }
}
