package io.ridgeline.jobs.report;

import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.cost.NetworkCapex;
import io.ridgeline.engine.sweep.PricedFabric;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The workbook's {@code Assumptions} sheet: the TCO parameters (column B from row {@link
 * TcoWorkbook#FIRST_ASSUMPTION_ROW}, in {@link TcoAssumption} order), then one row per exported chip (price in B, TDP
 * in C) and per fabric the exported rows sit on (capex in B, switch power in C), each with its source in D.
 *
 * @param chipRow   Excel row (1-based) of each chip's inputs
 * @param fabricRow Excel row (1-based) of each fabric's inputs
 */
record AssumptionsSheet(Map<String, Integer> chipRow, Map<PricedFabric, Integer> fabricRow) {
    /** Price and TDP of one chip as the Assumptions sheet states them. */
    record ChipCost(String chip, double priceUsd, double tdpWatts, String source) {
    }

    /**
     * Price and TDP per chip as the run used them: cost_usd / gpu_count and cluster_tdp_w / gpu_count from the
     * rows when present (derived chips are not in the catalogue), else the bundled catalogue.
     */
    static Map<String, ChipCost> chipCosts(List<ResultRows> tables) {
        Map<String, ChipCost> out = new LinkedHashMap<>();
        HardwareCatalog catalog = HardwareCatalog.bundled();
        for (ResultRows t : tables) {
            for (int i = 0; i < t.size(); i++) {
                String chip = t.text(i, "chip");
                if (out.containsKey(chip)) {
                    continue;
                }
                double gpus = t.number(i, "gpu_count");
                double price = t.has("cost_usd") ? t.number(i, "cost_usd") / gpus : Double.NaN;
                double tdp = t.has("cluster_tdp_w") ? t.number(i, "cluster_tdp_w") / gpus : Double.NaN;
                Chip c = catalog.hasChip(chip) ? catalog.chip(chip) : null;
                String source = c != null ? "chips.csv (" + c.source() + ")" : "derived chip: results cost_usd "
                        + "and cluster_tdp_w / gpu_count";
                if (!(price >= 0) && c != null) {
                    price = c.priceUsd();
                }
                if (!(tdp > 0) && c != null) {
                    tdp = c.tdpWatts();
                }
                if (!(price >= 0) || !(tdp > 0)) {
                    throw new IllegalStateException("no price or TDP for chip " + chip + " in the results or the "
                            + "catalogue");
                }
                out.put(chip, new ChipCost(chip, price, tdp, source));
            }
        }
        return out;
    }


    static AssumptionsSheet write(XSSFWorkbook wb, WorkbookStyles s, TcoParameters parameters, double runTokens,
                                  Map<String, ChipCost> chips, List<PricedFabric> used) {
        Sheet sh = wb.createSheet(TcoWorkbook.ASSUMPTIONS);
        WorkbookStyles.text(sh, 0, 0, "TCO assumptions", s.title);
        WorkbookStyles.text(sh, 1, 0, "Edit the shaded blue cells: every cost column on the other sheets recalculates. Values: the "
                + "run's recorded cost section (About); defaults and sources: io.ridgeline.engine.cost.TcoParameters "
                + "(MODEL.md sec. 8).", null);
        header(sh, s, TcoWorkbook.FIRST_ASSUMPTION_ROW - 2, "Parameter", "Value", "Unit", "Source");
        for (TcoAssumption x : TcoAssumption.values()) {
            int r = TcoWorkbook.FIRST_ASSUMPTION_ROW - 1 + x.ordinal();
            double v = x == TcoAssumption.RUN_TOKENS ? runTokens : x.value(parameters);
            input(sh, s, r, x.label(), x == TcoAssumption.HOURS_PER_YEAR ? s.constant : s.input, x.source(), v);
            WorkbookStyles.text(sh, r, 2, x.unit(), null);
        }
        int r = TcoWorkbook.FIRST_ASSUMPTION_ROW - 1 + TcoAssumption.values().length + 1;
        header(sh, s, r++, "Chip", "Price [USD/GPU]", "TDP [W/GPU]", "Source");
        Map<String, Integer> chipRow = new LinkedHashMap<>();
        for (ChipCost c : chips.values()) {
            input(sh, s, r, c.chip(), s.input, c.source(), c.priceUsd(), c.tdpWatts());
            chipRow.put(c.chip(), ++r);
        }
        Map<PricedFabric, Integer> fabricRow = new LinkedHashMap<>();
        if (!used.isEmpty()) {
            header(sh, s, ++r, "Fabric (topology on scale-out, domain, GPUs)", "Capex [USD]", "Switch power [W]",
                    "Source");
            r++;
            for (PricedFabric f : used) {
                NetworkCapex c = f.capex();
                input(sh, s, r, String.format(Locale.ROOT, "%s on %s, domain %d, %d GPUs", f.topology(),
                        f.scaleOut(), f.scaleUpDomain(), f.gpuCount()), s.input, String.format(Locale.ROOT,
                        "the run's priced fabric (runs.cost_fabrics_json): %d switches $%,.0f, %d optics $%,.0f, "
                                + "%d cables $%,.0f, %d NIC ports $%,.0f", c.switchCount(), c.switchUsd(),
                        c.opticCount(), c.opticUsd(), c.cableCount(), c.cableUsd(), c.nicCount(), c.nicUsd()),
                        c.totalUsd(), c.switchWatts());
                fabricRow.put(f, ++r);
            }
        }
        sh.setColumnWidth(0, 44 * 256);
        sh.setColumnWidth(1, 16 * 256);
        sh.setColumnWidth(2, 16 * 256);
        sh.setColumnWidth(3, 100 * 256);
        return new AssumptionsSheet(chipRow, fabricRow);
    }

    private static void header(Sheet sh, WorkbookStyles s, int row, String... heads) {
        for (int i = 0; i < heads.length; i++) {
            WorkbookStyles.text(sh, row, i, heads[i], s.header);
        }
    }

    /** A label in A, numeric inputs from B on, the source in D. */
    private static void input(Sheet sh, WorkbookStyles s, int row, String label, CellStyle style, String source,
                              double... values) {
        WorkbookStyles.text(sh, row, 0, label, null);
        for (int i = 0; i < values.length; i++) {
            Cell c = sh.getRow(row).createCell(1 + i);
            c.setCellValue(values[i]);
            c.setCellStyle(style);
        }
        WorkbookStyles.text(sh, row, 3, source, null);
    }
}
