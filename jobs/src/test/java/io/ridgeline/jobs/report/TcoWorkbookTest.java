package io.ridgeline.jobs.report;

import io.ridgeline.engine.cost.GpuHourCost;
import io.ridgeline.engine.cost.TcoModel;
import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.cost.TcoParameters.Knob;
import io.ridgeline.engine.cost.NetworkCapex;
import io.ridgeline.engine.sweep.PricedFabric;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellType;
import org.apache.poi.ss.usermodel.FormulaEvaluator;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.util.CellReference;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The workbook's formulas, evaluated by POI, equal TcoModel's numbers and follow edits to the Assumptions sheet. */
class TcoWorkbookTest {
    @TempDir
    Path dir;

    private static final List<String> COLS = List.of("frontier_group", "chip", "gpu_count", "step_time_s",
            "tokens_per_s", "cluster_tdp_w", "cost_usd");

    /** Two chips at two sizes; prices and TDPs as the catalogue gives them (cost_usd = price x gpus). */
    static ResultRows frontier() {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[]{"model=m", "h100-sxm", 256, 26.0, 120_000.0, 256 * 700.0, 256 * 30_000.0});
        rows.add(new Object[]{"model=m", "h100-sxm", 1024, 7.1, 440_000.0, 1024 * 700.0, 1024 * 30_000.0});
        rows.add(new Object[]{"model=m", "b200", 512, 6.4, 489_000.0, 512 * 1000.0, 512 * 40_000.0});
        return new ResultRows("frontier", COLS, rows);
    }

    private Path write(double runTokens) throws Exception {
        Path f = dir.resolve("tco.xlsx");
        new TcoWorkbook(TcoParameters.defaults(), runTokens, Map.of("run_id", "r1")).write(List.of(frontier()), f);
        return f;
    }

    private static int col(Sheet sh, String header) {
        Row head = sh.getRow(0);
        for (Cell c : head) {
            if (c.getStringCellValue().equals(header)) {
                return c.getColumnIndex();
            }
        }
        throw new AssertionError("no column " + header);
    }

    private static double eval(FormulaEvaluator ev, Sheet sh, int row, String header) {
        Cell c = sh.getRow(row + 1).getCell(col(sh, header));
        assertEquals(CellType.FORMULA, c.getCellType(), header + " must be a live formula");
        return ev.evaluate(c).getNumberValue();
    }

    private static void assertMatches(FormulaEvaluator ev, Sheet sh, TcoParameters p, double runTokens,
                                      double h100Price) {
        TcoModel tco = new TcoModel(p);
        ResultRows f = frontier();
        for (int i = 0; i < f.size(); i++) {
            String chip = f.text(i, "chip");
            double price = chip.equals("h100-sxm") ? h100Price : 40_000;
            double tdp = chip.equals("h100-sxm") ? 700 : 1000;
            int gpus = (int) f.number(i, "gpu_count");
            double step = f.number(i, "step_time_s");
            double tps = f.number(i, "tokens_per_s");
            GpuHourCost c = tco.gpuHour(price, tdp);
            double tol = 1e-9;
            assertEquals(c.capexUsdPerGpu(), eval(ev, sh, i, TcoFormulas.CAPEX), c.capexUsdPerGpu() * tol);
            assertEquals(c.capexUsdPerHour(), eval(ev, sh, i, TcoFormulas.CAPEX_HOUR), c.capexUsdPerHour() * tol);
            assertEquals(c.wallWattsPerGpu(), eval(ev, sh, i, TcoFormulas.WALL_W), c.wallWattsPerGpu() * tol);
            assertEquals(c.energyUsdPerHour(), eval(ev, sh, i, TcoFormulas.ENERGY_HOUR), c.energyUsdPerHour() * tol);
            assertEquals(c.usdPerGpuHour(), eval(ev, sh, i, TcoFormulas.GPU_HOUR), c.usdPerGpuHour() * tol);
            double perStep = TcoModel.runUsd(c, gpus, step);
            assertEquals(perStep, eval(ev, sh, i, TcoFormulas.STEP), perStep * tol);
            double perMtok = TcoModel.usdPerMillionTokens(c, gpus, tps);
            assertEquals(perMtok, eval(ev, sh, i, TcoFormulas.MTOK), perMtok * tol);
            double run = TcoModel.runUsd(c, gpus, runTokens / tps);
            assertEquals(run, eval(ev, sh, i, TcoFormulas.RUN), run * tol);
            // The energy columns are the electricity share of the totals.
            double energyShare = c.energyUsdPerHour() / (c.capexUsdPerHour() + c.energyUsdPerHour());
            assertEquals(perStep * energyShare, eval(ev, sh, i, TcoFormulas.ENERGY_STEP), perStep * tol);
            assertEquals(run * energyShare, eval(ev, sh, i, TcoFormulas.ENERGY_RUN), run * tol);
            double days = runTokens / tps / p.availabilityFraction() / 86400;
            assertEquals(days, eval(ev, sh, i, TcoFormulas.RUN_DAYS), days * tol);
        }
    }

    @Test
    void formulasEvaluateToTheTcoModelNumbers() throws Exception {
        Path f = write(300e9);
        try (InputStream in = Files.newInputStream(f); XSSFWorkbook wb = new XSSFWorkbook(in)) {
            assertEquals(List.of("Assumptions", "Frontier", "About"), List.of(wb.getSheetName(0),
                    wb.getSheetName(1), wb.getSheetName(2)));
            FormulaEvaluator ev = wb.getCreationHelper().createFormulaEvaluator();
            assertMatches(ev, wb.getSheet("Frontier"), TcoParameters.defaults(), 300e9, 30_000);
        }
    }

    @Test
    void editingAnAssumptionRecomputesEveryRow() throws Exception {
        Path f = write(300e9);
        try (InputStream in = Files.newInputStream(f); XSSFWorkbook wb = new XSSFWorkbook(in)) {
            Sheet as = wb.getSheet(TcoWorkbook.ASSUMPTIONS);
            Sheet fr = wb.getSheet("Frontier");
            FormulaEvaluator ev = wb.getCreationHelper().createFormulaEvaluator();
            double before = eval(ev, fr, 0, TcoFormulas.GPU_HOUR);

            set(as, TcoWorkbook.assumptionCell(TcoAssumption.PUE), 1.5);
            set(as, TcoWorkbook.assumptionCell(TcoAssumption.AMORTIZATION_YEARS), 5);
            set(as, TcoWorkbook.assumptionCell(TcoAssumption.RUN_TOKENS), 2e12);
            // The chip table: h100-sxm is the first chip row, its price in column B.
            int h100Row = findRow(as, "h100-sxm");
            set(as, "B" + (h100Row + 1), 25_000);
            ev.clearAllCachedResultValues();

            double after = eval(ev, fr, 0, TcoFormulas.GPU_HOUR);
            assertNotEquals(before, after, "a changed assumption must change $/GPU-hour");
            assertMatches(ev, fr, TcoParameters.defaults().with(Knob.PUE, 1.5).with(Knob.AMORTIZATION_YEARS, 5),
                    2e12, 25_000);
        }
    }

    @Test
    void assumptionsCarryDefaultsUnitsAndSources() throws Exception {
        try (InputStream in = Files.newInputStream(write(1e12)); XSSFWorkbook wb = new XSSFWorkbook(in)) {
            Sheet as = wb.getSheet(TcoWorkbook.ASSUMPTIONS);
            TcoParameters d = TcoParameters.defaults();
            for (TcoAssumption x : TcoAssumption.values()) {
                CellReference ref = new CellReference(TcoWorkbook.assumptionCell(x));
                Row r = as.getRow(ref.getRow());
                double expected = x == TcoAssumption.RUN_TOKENS ? 1e12 : x.value(d);
                assertEquals(expected, r.getCell(1).getNumericCellValue(), 0, x.name());
                assertEquals(x.label(), r.getCell(0).getStringCellValue());
                assertTrue(!r.getCell(2).getStringCellValue().isBlank(), x + " has a unit");
                assertTrue(r.getCell(3).getStringCellValue().length() > 10, x + " has a source");
            }
            assertEquals(1.64, as.getRow(new CellReference(TcoWorkbook.assumptionCell(TcoAssumption.SERVER_OVERHEAD))
                    .getRow()).getCell(1).getNumericCellValue());
            Row h100 = as.getRow(findRow(as, "h100-sxm"));
            assertEquals(30_000, h100.getCell(1).getNumericCellValue());
            assertEquals(700, h100.getCell(2).getNumericCellValue());
            assertTrue(h100.getCell(3).getStringCellValue().startsWith("chips.csv"), "catalogue source");
        }
    }

    @Test
    void cachedValuesAreStoredForViewersThatDoNotRecalculate() throws Exception {
        try (InputStream in = Files.newInputStream(write(300e9)); XSSFWorkbook wb = new XSSFWorkbook(in)) {
            Sheet fr = wb.getSheet("Frontier");
            Cell c = fr.getRow(1).getCell(col(fr, TcoFormulas.GPU_HOUR));
            double expected = new TcoModel(TcoParameters.defaults()).gpuHour(30_000, 700).usdPerGpuHour();
            assertEquals(expected, c.getNumericCellValue(), expected * 1e-9);
            assertTrue(wb.getForceFormulaRecalculation());
        }
    }

    @Test
    void rowsOnAPricedFabricTakeItsCapexAndSwitchPowerOthersTheInterconnectShare() throws Exception {
        List<String> cols = List.of("chip", "gpu_count", "topology", "scale_out", "scale_up_domain", "step_time_s",
                "tokens_per_s", "cluster_tdp_w", "cost_usd");
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[]{"h100-sxm", 512, "fat-tree-2:1", "ndr", 8, 7.0, 400_000.0, 512 * 700.0, 512 * 30_000.0});
        rows.add(new Object[]{"h100-sxm", 512, "none", "ndr", 8, 7.5, 380_000.0, 512 * 700.0, 512 * 30_000.0});
        NetworkCapex capex = new NetworkCapex(24, 1024, 512, 512, 600_000, 400_000, 50_000, 300_000, 30_000);
        PricedFabric fabric = new PricedFabric("fat-tree-2:1", "ndr", 8, 512, capex);
        PricedFabric unused = new PricedFabric("fat-tree-2:1", "ndr", 8, 1024, capex);
        TcoParameters p = TcoParameters.defaults().with(Knob.USD_PER_KWH, 0.3).with(Knob.PUE, 1.4);
        Path f = dir.resolve("fabric.xlsx");
        new TcoWorkbook(p, List.of(unused, fabric), 1e12, Map.of()).write(List.of(new ResultRows("frontier", cols,
                rows)), f);
        try (InputStream in = Files.newInputStream(f); XSSFWorkbook wb = new XSSFWorkbook(in)) {
            Sheet fr = wb.getSheet("Frontier");
            FormulaEvaluator ev = wb.getCreationHelper().createFormulaEvaluator();
            TcoModel tco = new TcoModel(p);
            GpuHourCost onFabric = tco.gpuHour(30_000, 700, capex, 512);
            GpuHourCost shared = tco.gpuHour(30_000, 700);
            assertEquals(onFabric.usdPerGpuHour(), eval(ev, fr, 0, TcoFormulas.GPU_HOUR),
                    onFabric.usdPerGpuHour() * 1e-12);
            assertEquals(onFabric.wallWattsPerGpu(), eval(ev, fr, 0, TcoFormulas.WALL_W), 1e-9);
            assertEquals(capex.totalUsd(), eval(ev, fr, 0, TcoFormulas.FABRIC), 0);
            assertEquals(shared.usdPerGpuHour(), eval(ev, fr, 1, TcoFormulas.GPU_HOUR), shared.usdPerGpuHour() * 1e-12);
            assertEquals(null, fr.getRow(2).getCell(col(fr, TcoFormulas.FABRIC)), "no fabric cell without one");
            Sheet as = wb.getSheet(TcoWorkbook.ASSUMPTIONS);
            int fabricRow = findRow(as, "fat-tree-2:1 on ndr, domain 8, 512 GPUs");
            assertEquals(capex.totalUsd(), as.getRow(fabricRow).getCell(1).getNumericCellValue());
            assertEquals(30_000, as.getRow(fabricRow).getCell(2).getNumericCellValue());
            assertThrows(AssertionError.class, () -> findRow(as, "fat-tree-2:1 on ndr, domain 8, 1024 GPUs"),
                    "only fabrics of exported rows are listed");
            // Editing the fabric's capex moves only the row on it.
            as.getRow(fabricRow).getCell(1).setCellValue(2 * capex.totalUsd());
            ev.clearAllCachedResultValues();
            assertTrue(eval(ev, fr, 0, TcoFormulas.GPU_HOUR) > onFabric.usdPerGpuHour());
            assertEquals(shared.usdPerGpuHour(), eval(ev, fr, 1, TcoFormulas.GPU_HOUR), shared.usdPerGpuHour() * 1e-12);
        }
    }

    private static void set(Sheet sh, String ref, double v) {
        CellReference r = new CellReference(ref);
        sh.getRow(r.getRow()).getCell(r.getCol()).setCellValue(v);
    }

    private static int findRow(Sheet sh, String label) {
        for (Row r : sh) {
            Cell c = r.getCell(0);
            if (c != null && c.getCellType() == CellType.STRING && c.getStringCellValue().equals(label)) {
                return r.getRowNum();
            }
        }
        throw new AssertionError("no row " + label);
    }
}
