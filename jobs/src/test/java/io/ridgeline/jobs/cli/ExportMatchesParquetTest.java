package io.ridgeline.jobs.cli;

import io.ridgeline.engine.cost.TcoModel;
import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.jobs.report.TcoFormulas;
import io.ridgeline.jobs.report.TcoWorkbook;
import io.ridgeline.jobs.sweep.SweepJob;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellType;
import org.apache.poi.ss.usermodel.FormulaEvaluator;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Money matches Parquet: a sweep with non-default costs and a priced fabric topology is run on Spark, exported, and
 * every formula cell of every row of the recalculated workbook (POI's FormulaEvaluator, not the cached values) equals
 * the run's Parquet value of that row. Serving runs export a real workbook and phase-specific CSV columns.
 */
class ExportMatchesParquetTest {
    private static SparkSession spark;
    @TempDir
    static Path dir;

    /** Non-default in every TCO parameter and with a token budget. */
    static final TcoParameters COSTS = new TcoParameters(1.8, 0.15, 5, 1.6, 0.7, 1.35, 0.30, 0.85);
    static final double TOKENS = 1e12;
    static final String COST = "cost: {server_overhead_factor: 1.8, interconnect_fraction: 0.15, amortization_years: 5, "
            + "server_power_factor: 1.6, load_fraction: 0.7, pue: 1.35, usd_per_kwh: 0.30, availability_fraction: 0.85, "
            + "tokens: 1e12}";

    static final String TRAINING = String.join("\n", "name: money", "models: [llama2-7b]",
            "phases: [{phase: training, seq_len: [2048], global_batch: [512]}]",
            "hardware: {presets: [a100-80g, h100-sxm]}",
            "network: {topology: [none, {kind: fat-tree, oversubscription: 2}]}",
            "cluster: {gpu_count: [64, 128]}", "parallelism: {tp: [1, 2, 4, 8], pp: [1, 2]}",
            "objectives: [{max: tokens_per_s}, {min: usd_per_million_tokens}]", "output: {points: all}", COST, "");

    static final String SERVING = String.join("\n", "name: serve", "models: [llama2-7b, llama2-13b]",
            "phases: [{phase: inference, batch: [1, 16], input_tokens: [512], output_tokens: [128]}]",
            "hardware: {presets: [a100-80g, h100-sxm]}",
            "network: {topology: [none, {kind: fat-tree, oversubscription: 2}]}",
            "cluster: {gpu_count: [8]}", "parallelism: {tp: [1, 2, 4, 8], pp: [1], keep: frontier}",
            "objectives: [{min: tpot_s}, {min: usd_per_million_tokens}]", "output: {points: all}", COST, "");

    @BeforeAll
    static void start() {
        spark = SparkSession.builder().master("local[2]").appName("ExportMatchesParquetTest")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
    }

    @AfterAll
    static void stop() {
        spark.stop();
    }

    private static Path sweep(String text, String runId) {
        SweepSpec spec = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled()).parse("s.yaml", text);
        Path out = dir.resolve("results");
        SweepJob.run(spark, spec, new SweepJob.Options(out.toString(), runId, 2, 60_000, 0.1),
                new PrintStream(new ByteArrayOutputStream()));
        return out;
    }

    /** The Parquet rows of one table of a run, keyed by point_index/plan_index. */
    private static Map<String, org.apache.spark.sql.Row> parquet(Path out, String table, String runId) {
        Map<String, org.apache.spark.sql.Row> rows = new HashMap<>();
        for (org.apache.spark.sql.Row r : spark.read().parquet(out.resolve(table).resolve("run_id=" + runId)
                .toString()).collectAsList()) {
            rows.put(r.getAs("point_index") + "/" + r.getAs("plan_index"), r);
        }
        return rows;
    }

    private static double d(org.apache.spark.sql.Row r, String column) {
        Object v = r.getAs(column);
        return v == null ? Double.NaN : ((Number) v).doubleValue();
    }

    /**
     * What each formula column must equal, from the Parquet row alone (and the sweep's known parameters for the
     * columns Parquet does not store). NaN = the row must have no such cell.
     */
    private static Map<String, ToDoubleFunction<org.apache.spark.sql.Row>> expected() {
        TcoParameters p = COSTS;
        Map<String, ToDoubleFunction<org.apache.spark.sql.Row>> m = new LinkedHashMap<>();
        ToDoubleFunction<org.apache.spark.sql.Row> gpus = r -> d(r, "gpu_count");
        ToDoubleFunction<org.apache.spark.sql.Row> wall = r -> d(r, "wall_energy_per_token_j") * d(r, "tokens_per_s")
                / gpus.applyAsDouble(r);
        ToDoubleFunction<org.apache.spark.sql.Row> energyHour = r -> wall.applyAsDouble(r) / 1000 * p.usdPerKwh();
        m.put(TcoFormulas.CHIP_PRICE, r -> d(r, "cost_usd") / gpus.applyAsDouble(r));
        m.put(TcoFormulas.TDP, r -> d(r, "cluster_tdp_w") / gpus.applyAsDouble(r));
        m.put(TcoFormulas.FABRIC, r -> d(r, "fabric_capex_usd"));
        m.put(TcoFormulas.NETWORK, r -> d(r, "cluster_capex_usd") / gpus.applyAsDouble(r)
                - d(r, "cost_usd") / gpus.applyAsDouble(r) * p.serverOverheadFactor());
        m.put(TcoFormulas.CAPEX, r -> d(r, "cluster_capex_usd") / gpus.applyAsDouble(r));
        m.put(TcoFormulas.CAPEX_HOUR, r -> d(r, "cluster_capex_usd") / gpus.applyAsDouble(r)
                / (p.amortizationYears() * TcoModel.HOURS_PER_YEAR));
        m.put(TcoFormulas.WALL_W, wall);
        m.put(TcoFormulas.ENERGY_HOUR, energyHour);
        m.put(TcoFormulas.GPU_HOUR, r -> d(r, "usd_per_gpu_hour"));
        m.put(TcoFormulas.CLUSTER_CAPEX, r -> d(r, "cluster_capex_usd"));
        m.put(TcoFormulas.STEP, r -> d(r, "usd_per_gpu_hour") * gpus.applyAsDouble(r) * d(r, "step_time_s") / 3600);
        m.put(TcoFormulas.ENERGY_STEP, r -> energyHour.applyAsDouble(r) / p.availabilityFraction()
                * gpus.applyAsDouble(r) * d(r, "step_time_s") / 3600);
        m.put(TcoFormulas.REQUEST, r -> d(r, "usd_per_gpu_hour") * gpus.applyAsDouble(r) * d(r, "e2e_latency_s")
                / 3600 / (d(r, "dp") * d(r, "global_batch")));
        m.put(TcoFormulas.MTOK, r -> d(r, "usd_per_million_tokens"));
        m.put(TcoFormulas.WALL_J, r -> d(r, "wall_energy_per_token_j"));
        m.put(TcoFormulas.RUN_DAYS, r -> TOKENS / d(r, "tokens_per_s") / p.availabilityFraction() / 86400);
        m.put(TcoFormulas.RUN, r -> d(r, "run_cost_usd"));
        m.put(TcoFormulas.ENERGY_RUN, r -> energyHour.applyAsDouble(r) / p.availabilityFraction()
                * gpus.applyAsDouble(r) * TOKENS / d(r, "tokens_per_s") / 3600);
        return m;
    }

    private static int column(Sheet sh, String header) {
        for (Cell c : sh.getRow(0)) {
            if (c.getStringCellValue().equals(header)) {
                return c.getColumnIndex();
            }
        }
        return -1;
    }

    /** Recalculates every formula cell of a sheet and compares it with the row's Parquet values; counts cells. */
    private static int[] compare(XSSFWorkbook wb, String sheet, Map<String, org.apache.spark.sql.Row> parquet) {
        Sheet sh = wb.getSheet(sheet);
        FormulaEvaluator ev = wb.getCreationHelper().createFormulaEvaluator();
        ev.clearAllCachedResultValues();
        Map<String, ToDoubleFunction<org.apache.spark.sql.Row>> expected = expected();
        int pointCol = column(sh, "point_index");
        int planCol = column(sh, "plan_index");
        int cells = 0;
        int fabricRows = 0;
        List<String> headers = new ArrayList<>();
        for (Cell c : sh.getRow(0)) {
            if (TcoFormulas.headers(true, true).contains(c.getStringCellValue())) {
                headers.add(c.getStringCellValue());
            }
        }
        assertTrue(expected.keySet().containsAll(headers), "every formula column has an expected value: " + headers);
        for (int i = 1; i <= sh.getLastRowNum(); i++) {
            Row row = sh.getRow(i);
            String key = (long) row.getCell(pointCol).getNumericCellValue() + "/"
                    + (int) row.getCell(planCol).getNumericCellValue();
            org.apache.spark.sql.Row pr = parquet.get(key);
            assertTrue(pr != null, sheet + " row " + key + " is not in Parquet");
            for (String h : headers) {
                Cell c = row.getCell(column(sh, h));
                double want = expected.get(h).applyAsDouble(pr);
                if (Double.isNaN(want)) {
                    assertNull(c, sheet + " " + key + " " + h + ": Parquet has no value, the sheet no cell");
                    continue;
                }
                assertTrue(c != null && c.getCellType() == CellType.FORMULA, sheet + " " + key + " " + h);
                double got = ev.evaluate(c).getNumberValue();
                assertEquals(want, got, Math.abs(want) * 1e-9 + 1e-12, sheet + " " + key + " " + h);
                cells++;
            }
            fabricRows += Double.isNaN(d(pr, "fabric_capex_usd")) ? 0 : 1;
        }
        return new int[]{sh.getLastRowNum(), cells, fabricRows};
    }

    private static List<String> csvHeader(Path csv) throws Exception {
        return List.of(Files.readAllLines(csv).get(0).split(","));
    }

    /** Every exported column has a value in some row. */
    private static void assertNoEmptyColumn(Path csv) throws Exception {
        List<String> lines = Files.readAllLines(csv);
        String[] head = lines.get(0).split(",", -1);
        for (int c = 0; c < head.length; c++) {
            boolean any = false;
            for (String l : lines.subList(1, lines.size())) {
                any |= !l.split(",", -1)[c].isEmpty();
            }
            assertTrue(any, csv.getFileName() + ": column " + head[c] + " is empty in every row");
        }
    }

    @Test
    void everyCostCellOfATrainingWorkbookWithAFabricEqualsParquet() throws Exception {
        Path out = sweep(TRAINING, "money");
        Path to = dir.resolve("export-money");
        CliRun o = CliRun.of("export", "--out", out.toString(), "--run", "money", "--table", "frontier,points",
                "--to", to.toString());
        assertEquals(0, o.code(), o.err());
        try (InputStream in = Files.newInputStream(to.resolve("money-tco.xlsx"));
             XSSFWorkbook wb = new XSSFWorkbook(in)) {
            Sheet as = wb.getSheet(TcoWorkbook.ASSUMPTIONS);
            assertEquals(0.30, as.getRow(new org.apache.poi.ss.util.CellReference(TcoWorkbook.assumptionCell(
                    io.ridgeline.jobs.report.TcoAssumption.USD_PER_KWH)).getRow()).getCell(1).getNumericCellValue());
            int[] points = compare(wb, "Points", parquet(out, "points", "money"));
            int[] frontier = compare(wb, "Frontier", parquet(out, "frontier", "money"));
            assertEquals(8, points[0], "every feasible point is priced");
            assertTrue(points[2] > 0 && points[2] < points[0], "rows on the fat-tree and rows without a fabric");
            assertTrue(frontier[0] > 0);
            assertTrue(points[1] >= 8 * 16, "cells compared: " + points[1]);
        }
        List<String> header = csvHeader(to.resolve("money-frontier.csv"));
        assertTrue(header.containsAll(List.of("step_time_s [s]", "mfu_fraction [fraction]", "micro_batch [sequences]",
                "usd_per_million_tokens [USD]", "run_cost_usd [USD]", "fabric_capex_usd [USD]")), header.toString());
        assertFalse(header.stream().anyMatch(h -> h.startsWith("ttft_s") || h.startsWith("tpot_s")
                || h.startsWith("input_tokens") || h.startsWith("kv_cache_precision")), header.toString());
        assertNoEmptyColumn(to.resolve("money-frontier.csv"));
    }

    @Test
    void aServingRunExportsAPricedWorkbookAndServingColumns() throws Exception {
        Path out = sweep(SERVING, "serve");
        Path to = dir.resolve("export-serve");
        CliRun o = CliRun.of("export", "--out", out.toString(), "--run", "serve", "--table", "frontier,points",
                "--to", to.toString());
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("Frontier ("), o.out());
        try (InputStream in = Files.newInputStream(to.resolve("serve-tco.xlsx"));
             XSSFWorkbook wb = new XSSFWorkbook(in)) {
            Sheet fr = wb.getSheet("Frontier");
            assertTrue(fr.getLastRowNum() > 0, "serving rows are priced");
            assertTrue(column(fr, TcoFormulas.REQUEST) >= 0 && column(fr, TcoFormulas.MTOK) >= 0);
            assertEquals(-1, column(fr, TcoFormulas.STEP), "no per-step cost for serving");
            int[] points = compare(wb, "Points", parquet(out, "points", "serve"));
            int[] frontier = compare(wb, "Frontier", parquet(out, "frontier", "serve"));
            assertTrue(points[0] > 8 && frontier[0] > 0 && points[2] > 0, points[0] + " " + points[2]);
        }
        for (String table : List.of("frontier", "points")) {
            Path csv = to.resolve("serve-" + table + ".csv");
            List<String> header = csvHeader(csv);
            for (String want : List.of("ttft_s [s]", "tpot_s [s]", "e2e_latency_s [s]", "tokens_per_s [tokens/s]",
                    "usd_per_million_tokens [USD]", "input_tokens [tokens]", "kv_cache_precision")) {
                assertTrue(header.contains(want), table + " lacks " + want + ": " + header);
            }
            for (String training : List.of("step_time_s", "mfu_fraction", "micro_batch", "recompute", "cp ",
                    "energy_per_step_j")) {
                assertFalse(header.stream().anyMatch(h -> (h + " ").startsWith(training)), table + ": " + training);
            }
            if (table.equals("frontier")) {
                assertNoEmptyColumn(csv);
            }
        }
    }
}
