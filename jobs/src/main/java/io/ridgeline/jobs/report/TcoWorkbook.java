package io.ridgeline.jobs.report;

import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.cost.NetworkCapex;
import io.ridgeline.engine.sweep.PricedFabric;
import io.ridgeline.jobs.report.TcoFormulas.Formula;
import io.ridgeline.jobs.report.TcoFormulas.RowRefs;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.util.CellRangeAddress;
import org.apache.poi.ss.util.CellReference;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The TCO workbook: an {@code Assumptions} sheet of editable inputs (TCO parameters, per-chip price and TDP, per-fabric
 * capex and switch power, each with unit and source), one sheet per exported table whose cost columns are Excel
 * formulas over those cells ({@link TcoFormulas}), and an {@code About} sheet (provenance and what every formula
 * computes). Given the run's recorded cost inputs, the workbook and the run's Parquet agree cell for cell until the
 * user edits an assumption.
 */
public final class TcoWorkbook {
    public static final String ASSUMPTIONS = "Assumptions";
    public static final String ABOUT = "About";
    /** Excel rows are 1-based; the first assumption sits on this row, column B. */
    static final int FIRST_ASSUMPTION_ROW = 5;
    /** XSSF keeps the whole sheet in memory; beyond this, CSV is the right format. */
    public static final int MAX_ROWS = 100_000;

    /** Result columns every formula sheet needs. */
    public static final List<String> REQUIRED = List.of("chip", "gpu_count", "tokens_per_s");
    /** ... and those of training rows, serving rows, and rows on a priced fabric. */
    public static final List<String> TRAINING_REQUIRED = List.of("step_time_s");
    public static final List<String> INFERENCE_REQUIRED = List.of("e2e_latency_s", "dp", "global_batch");
    public static final List<String> FABRIC_REQUIRED = List.of("topology", "scale_out", "scale_up_domain");
    /** Result columns a formula column recomputes under the same header: the workbook shows the live formula only. */
    public static final List<String> RECOMPUTED = List.of("fabric_capex_usd", "cluster_capex_usd",
            "wall_energy_per_token_j");

    private final TcoParameters parameters;
    private final List<PricedFabric> fabrics;
    private final double runTokens;
    private final Map<String, String> about;

    /** A workbook without priced fabrics (every row takes the interconnect share). */
    public TcoWorkbook(TcoParameters parameters, double runTokens, Map<String, String> about) {
        this(parameters, List.of(), runTokens, about);
    }

    /**
     * @param fabrics the run's priced fabrics (runs.cost_fabrics_json); rows on one of them are priced with it
     * @param about   provenance lines for the About sheet (run id, sweep, code version...), in order
     */
    public TcoWorkbook(TcoParameters parameters, List<PricedFabric> fabrics, double runTokens,
                       Map<String, String> about) {
        if (!(runTokens > 0)) {
            throw new IllegalArgumentException("run tokens must be positive: " + runTokens);
        }
        this.parameters = parameters;
        this.fabrics = List.copyOf(fabrics);
        this.runTokens = runTokens;
        this.about = new LinkedHashMap<>(about);
    }

    /** True for a serving row ({@code phase = 'inference'}); rows without a phase column are training rows. */
    static boolean inference(ResultRows t, int row) {
        return t.has("phase") && "inference".equals(t.text(row, "phase"));
    }

    /** The formulas of a table's sheet: those of the phases its rows have. */
    public static List<String> formulaHeaders(ResultRows t) {
        return formulas(t).stream().map(Formula::header).toList();
    }

    private static List<Formula> formulas(ResultRows t) {
        boolean training = false;
        boolean inference = false;
        for (int i = 0; i < t.size(); i++) {
            inference |= inference(t, i);
            training |= !inference(t, i);
        }
        return TcoFormulas.forPhases(training || t.size() == 0, inference);
    }

    /** Builds the workbook with one formula sheet per table, named after it (Frontier, Points). */
    public XSSFWorkbook build(List<ResultRows> tables) {
        for (ResultRows t : tables) {
            for (int i = 0; i < t.size(); i++) {
                List<String> need = new ArrayList<>(REQUIRED);
                need.addAll(inference(t, i) ? INFERENCE_REQUIRED : TRAINING_REQUIRED);
                if (!fabrics.isEmpty()) {
                    need.addAll(FABRIC_REQUIRED);
                }
                for (String col : need) {
                    if (!t.has(col)) {
                        throw new IllegalStateException("TCO sheet needs column " + col + " in " + t.columns());
                    }
                }
            }
            if (t.size() > MAX_ROWS) {
                throw new IllegalArgumentException(t.table() + " has " + t.size() + " rows; a workbook holds at "
                        + "most " + MAX_ROWS);
            }
        }
        XSSFWorkbook wb = new XSSFWorkbook();
        WorkbookStyles s = new WorkbookStyles(wb);
        AssumptionsSheet refs = AssumptionsSheet.write(wb, s, parameters, runTokens, AssumptionsSheet.chipCosts(tables),
                usedFabrics(tables));
        for (ResultRows t : tables) {
            dataSheet(wb, s, t, refs);
        }
        aboutSheet(wb, s, tables);
        wb.setForceFormulaRecalculation(true);
        // Cache every formula's value so viewers that do not recalculate (previews, pandas) see numbers.
        wb.getCreationHelper().createFormulaEvaluator().evaluateAll();
        return wb;
    }

    /** Writes the workbook to a file. */
    public void write(List<ResultRows> tables, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (XSSFWorkbook wb = build(tables); OutputStream os = Files.newOutputStream(file)) {
            wb.write(os);
        }
    }

    /** The fabric a row was priced with, or null. */
    private PricedFabric fabricOf(ResultRows t, int row) {
        if (fabrics.isEmpty()) {
            return null;
        }
        for (PricedFabric f : fabrics) {
            if (f.topology().equals(t.text(row, "topology")) && f.scaleOut().equals(t.text(row, "scale_out"))
                    && f.scaleUpDomain() == (int) t.number(row, "scale_up_domain")
                    && f.gpuCount() == (int) t.number(row, "gpu_count")) {
                return f;
            }
        }
        return null;
    }

    private List<PricedFabric> usedFabrics(List<ResultRows> tables) {
        List<PricedFabric> used = new ArrayList<>();
        for (ResultRows t : tables) {
            for (int i = 0; i < t.size(); i++) {
                PricedFabric f = fabricOf(t, i);
                if (f != null && !used.contains(f)) {
                    used.add(f);
                }
            }
        }
        return used;
    }

    private static String col(ResultRows t, String column) {
        return t.has(column) ? CellReference.convertNumToColString(t.index(column)) : null;
    }

    private void dataSheet(XSSFWorkbook wb, WorkbookStyles s, ResultRows t, AssumptionsSheet at) {
        Sheet sh = wb.createSheet(sheetName(t.table()));
        Row head = sh.createRow(0);
        List<String> cols = t.columns();
        List<Formula> formulas = formulas(t);
        for (int i = 0; i < cols.size() + formulas.size(); i++) {
            Cell c = head.createCell(i);
            boolean data = i < cols.size();
            c.setCellValue(data ? ColumnSelector.header(t.table(), cols.get(i)) : formulas.get(i - cols.size())
                    .header());
            c.setCellStyle(data ? s.header : s.formulaHeader);
        }
        String gpuCol = col(t, "gpu_count");
        String stepCol = col(t, "step_time_s");
        String tpsCol = col(t, "tokens_per_s");
        String e2eCol = col(t, "e2e_latency_s");
        String dpCol = col(t, "dp");
        String batchCol = col(t, "global_batch");
        for (int i = 0; i < t.size(); i++) {
            Row row = sh.createRow(i + 1);
            Object[] values = t.rows().get(i);
            for (int k = 0; k < values.length; k++) {
                Object v = values[k];
                if (v == null) {
                    continue;
                }
                Cell c = row.createCell(k);
                if (v instanceof Number n) {
                    c.setCellValue(n.doubleValue());
                } else if (v instanceof Boolean b) {
                    c.setCellValue(b);
                } else {
                    c.setCellValue(v.toString());
                }
            }
            int r = i + 2;
            Integer cr = at.chipRow().get(t.text(i, "chip"));
            if (cr == null) {
                throw new IllegalStateException("chip without an Assumptions row: " + t.text(i, "chip"));
            }
            PricedFabric fabric = fabricOf(t, i);
            Integer fr = fabric == null ? null : at.fabricRow().get(fabric);
            boolean serving = inference(t, i);
            Map<String, String> own = new LinkedHashMap<>();
            RowRefs refs = new RowRefs(gpuCol + r, stepCol == null ? null : stepCol + r, tpsCol + r,
                    e2eCol == null ? null : e2eCol + r, dpCol == null ? null : dpCol + r,
                    batchCol == null ? null : batchCol + r, ASSUMPTIONS + "!$B$" + cr, ASSUMPTIONS + "!$C$" + cr,
                    fr == null ? null : ASSUMPTIONS + "!$B$" + fr, fr == null ? null : ASSUMPTIONS + "!$C$" + fr, own);
            for (int j = 0; j < formulas.size(); j++) {
                Formula f = formulas.get(j);
                if (f.rows() == (serving ? TcoFormulas.Rows.TRAINING : TcoFormulas.Rows.INFERENCE)) {
                    continue;
                }
                String text = f.text().at(refs);
                if (text == null) {
                    continue;
                }
                int c = cols.size() + j;
                Cell cell = row.createCell(c);
                cell.setCellFormula(text);
                cell.setCellStyle(s.number(f.format()));
                own.put(f.header(), CellReference.convertNumToColString(c) + r);
            }
        }
        sh.createFreezePane(0, 1);
        int last = cols.size() + formulas.size() - 1;
        sh.setAutoFilter(new CellRangeAddress(0, Math.max(0, t.size()), 0, last));
        for (int i = 0; i <= last; i++) {
            String h = head.getCell(i).getStringCellValue();
            sh.setColumnWidth(i, Math.min(40, Math.max(10, h.length() + 3)) * 256);
        }
    }

    private void aboutSheet(XSSFWorkbook wb, WorkbookStyles s, List<ResultRows> tables) {
        Sheet sh = wb.createSheet(ABOUT);
        int r = 0;
        WorkbookStyles.text(sh, r++, 0, "Ridgeline TCO workbook", s.title);
        for (Map.Entry<String, String> e : about.entrySet()) {
            WorkbookStyles.text(sh, r, 0, e.getKey(), s.header);
            WorkbookStyles.text(sh, r++, 1, e.getValue(), null);
        }
        r++;
        WorkbookStyles.text(sh, r, 0, "Computed column", s.header);
        WorkbookStyles.text(sh, r++, 1, "Formula (cells on the Assumptions sheet; one row's own columns)", s.header);
        List<String> shown = new ArrayList<>();
        for (ResultRows t : tables) {
            shown.addAll(formulaHeaders(t));
        }
        for (Formula f : TcoFormulas.ALL) {
            if (shown.contains(f.header())) {
                WorkbookStyles.text(sh, r, 0, f.header(), null);
                WorkbookStyles.text(sh, r++, 1, f.meaning(), null);
            }
        }
        r++;
        WorkbookStyles.text(sh, r++, 0, "Network capex: rows on a priced topology take their fabric's capex and switch power "
                + "(Assumptions, Fabric rows) spread over gpu_count; other rows take the interconnect share of "
                + "cluster capex (TcoModel.gpuHour).", null);
        WorkbookStyles.text(sh, r, 0, "Result columns keep their schema names with units in brackets; see docs/RESULTS.md.", null);
        sh.setColumnWidth(0, 40 * 256);
        sh.setColumnWidth(1, 100 * 256);
    }

    /** The sheet of a table: frontier to Frontier, points to Points. */
    public static String sheetName(String table) {
        return Character.toUpperCase(table.charAt(0)) + table.substring(1);
    }

    /** The Assumptions cell of one parameter, e.g. {@code B12} (for tests and docs). */
    public static String assumptionCell(TcoAssumption x) {
        return "B" + (FIRST_ASSUMPTION_ROW + x.ordinal());
    }
}
