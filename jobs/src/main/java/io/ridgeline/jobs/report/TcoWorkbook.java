package io.ridgeline.jobs.report;

import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import org.apache.poi.ss.usermodel.BorderStyle;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.FillPatternType;
import org.apache.poi.ss.usermodel.Font;
import org.apache.poi.ss.usermodel.IndexedColors;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.ss.util.CellRangeAddress;
import org.apache.poi.ss.util.CellReference;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The TCO workbook: an {@code Assumptions} sheet of editable inputs (TCO parameters and per-chip price and TDP, each
 * with unit and source), one sheet per exported table whose cost columns are Excel formulas over those cells, and an
 * {@code About} sheet (provenance and what every formula computes). The formulas are {@link
 * io.ridgeline.engine.cost.TcoModel}'s share-of-capex variant, cell for cell, so the workbook and the engine agree
 * until the user edits an assumption.
 */
public final class TcoWorkbook {
    public static final String ASSUMPTIONS = "Assumptions";
    public static final String ABOUT = "About";
    /** Excel rows are 1-based; the first assumption sits on this row, column B. */
    static final int FIRST_ASSUMPTION_ROW = 5;
    /** XSSF keeps the whole sheet in memory; beyond this, CSV is the right format. */
    public static final int MAX_ROWS = 100_000;

    /** Result columns every formula sheet needs. */
    public static final List<String> REQUIRED = List.of("chip", "gpu_count", "step_time_s", "tokens_per_s");

    /** Price and TDP of one chip as the Assumptions sheet states them. */
    public record ChipCost(String chip, double priceUsd, double tdpWatts, String source) {
    }

    /** One computed column: name with unit, Excel number format, formula over a row and what it means. */
    private record Formula(String header, String format, String meaning, FormulaText text) {
    }

    @FunctionalInterface
    private interface FormulaText {
        String at(RowRefs r);
    }

    /** Cell references of one data row: its data columns, its chip's Assumptions cells and its own formula cells. */
    private record RowRefs(int row, String gpus, String stepS, String tokensPerS, String price, String tdp,
                           Map<String, String> own) {
        String f(String header) {
            String ref = own.get(header);
            if (ref == null) {
                throw new IllegalStateException("formula column used before it is defined: " + header);
            }
            return ref;
        }
    }

    private static String a(TcoAssumption x) {
        return ASSUMPTIONS + "!$B$" + (FIRST_ASSUMPTION_ROW + x.ordinal());
    }

    /** Headers of the computed columns, in sheet order (tests and docs refer to them). */
    public static final String CHIP_PRICE = "chip_price_usd [USD/GPU]";
    public static final String TDP = "chip_tdp_w [W/GPU]";
    public static final String CAPEX = "capex_usd_per_gpu [USD/GPU]";
    public static final String CAPEX_HOUR = "capex_usd_per_gpu_hour [USD/GPU-h]";
    public static final String WALL_W = "wall_power_w_per_gpu [W/GPU]";
    public static final String ENERGY_HOUR = "energy_usd_per_gpu_hour [USD/GPU-h]";
    public static final String GPU_HOUR = "usd_per_gpu_hour [USD/GPU-h]";
    public static final String CLUSTER_CAPEX = "cluster_capex_usd [USD]";
    public static final String STEP = "usd_per_step [USD]";
    public static final String ENERGY_STEP = "energy_usd_per_step [USD]";
    public static final String MTOK = "usd_per_million_tokens [USD/Mtoken]";
    public static final String RUN_DAYS = "run_days [days]";
    public static final String RUN = "usd_per_run [USD]";
    public static final String ENERGY_RUN = "energy_usd_per_run [USD]";

    private static final List<Formula> FORMULAS = List.of(
            new Formula(CHIP_PRICE, "#,##0", "the chip's price on the Assumptions sheet", r -> r.price()),
            new Formula(TDP, "#,##0", "the chip's TDP on the Assumptions sheet", r -> r.tdp()),
            new Formula(CAPEX, "#,##0", "price x server overhead / (1 - interconnect share): server plus its "
                    + "network share", r -> r.f(CHIP_PRICE) + "*" + a(TcoAssumption.SERVER_OVERHEAD) + "/(1-"
                    + a(TcoAssumption.INTERCONNECT_SHARE) + ")"),
            new Formula(CAPEX_HOUR, "#,##0.000", "capex / (amortization years x hours per year)",
                    r -> r.f(CAPEX) + "/(" + a(TcoAssumption.AMORTIZATION_YEARS) + "*"
                            + a(TcoAssumption.HOURS_PER_YEAR) + ")"),
            new Formula(WALL_W, "#,##0", "TDP x server power factor x load x PUE",
                    r -> r.f(TDP) + "*" + a(TcoAssumption.SERVER_POWER) + "*" + a(TcoAssumption.LOAD) + "*"
                            + a(TcoAssumption.PUE)),
            new Formula(ENERGY_HOUR, "#,##0.000", "wall power / 1000 x electricity price",
                    r -> r.f(WALL_W) + "/1000*" + a(TcoAssumption.USD_PER_KWH)),
            new Formula(GPU_HOUR, "#,##0.000", "(capex per hour + energy per hour) / availability",
                    r -> "(" + r.f(CAPEX_HOUR) + "+" + r.f(ENERGY_HOUR) + ")/" + a(TcoAssumption.AVAILABILITY)),
            new Formula(CLUSTER_CAPEX, "#,##0", "capex per GPU x gpu_count", r -> r.f(CAPEX) + "*" + r.gpus()),
            new Formula(STEP, "#,##0.00", "USD per GPU-hour x gpu_count x step_time_s / 3600",
                    r -> r.f(GPU_HOUR) + "*" + r.gpus() + "*" + r.stepS() + "/3600"),
            new Formula(ENERGY_STEP, "#,##0.00", "the electricity part of usd_per_step",
                    r -> r.f(ENERGY_HOUR) + "/" + a(TcoAssumption.AVAILABILITY) + "*" + r.gpus() + "*" + r.stepS()
                            + "/3600"),
            new Formula(MTOK, "#,##0.000", "USD per GPU-hour x gpu_count / 3600 / tokens_per_s x 1e6",
                    r -> r.f(GPU_HOUR) + "*" + r.gpus() + "/3600/" + r.tokensPerS() + "*1000000"),
            new Formula(RUN_DAYS, "#,##0.0", "tokens per run / tokens_per_s / availability / 86400",
                    r -> a(TcoAssumption.RUN_TOKENS) + "/" + r.tokensPerS() + "/" + a(TcoAssumption.AVAILABILITY)
                            + "/86400"),
            new Formula(RUN, "#,##0", "USD per million tokens x tokens per run / 1e6",
                    r -> r.f(MTOK) + "*" + a(TcoAssumption.RUN_TOKENS) + "/1000000"),
            new Formula(ENERGY_RUN, "#,##0", "the electricity part of usd_per_run",
                    r -> r.f(ENERGY_HOUR) + "/" + a(TcoAssumption.AVAILABILITY) + "*" + r.gpus() + "*"
                            + a(TcoAssumption.RUN_TOKENS) + "/" + r.tokensPerS() + "/3600"));

    private final TcoParameters parameters;
    private final double runTokens;
    private final Map<String, String> about;

    /**
     * @param about provenance lines for the About sheet (run id, sweep, code version...), in order
     */
    public TcoWorkbook(TcoParameters parameters, double runTokens, Map<String, String> about) {
        if (!(runTokens > 0)) {
            throw new IllegalArgumentException("run tokens must be positive: " + runTokens);
        }
        this.parameters = parameters;
        this.runTokens = runTokens;
        this.about = new LinkedHashMap<>(about);
    }

    /** Headers of the formula columns in sheet order. */
    public static List<String> formulaHeaders() {
        return FORMULAS.stream().map(Formula::header).toList();
    }

    /**
     * Price and TDP per chip as the run used them: cost_usd / gpu_count and cluster_tdp_w / gpu_count from the
     * rows when present (derived chips are not in the catalogue), else the bundled catalogue.
     */
    public static Map<String, ChipCost> chipCosts(List<ResultRows> tables) {
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

    /** Builds the workbook with one formula sheet per table, named after it (Frontier, Points). */
    public XSSFWorkbook build(List<ResultRows> tables) {
        for (ResultRows t : tables) {
            for (String col : REQUIRED) {
                if (!t.has(col)) {
                    throw new IllegalStateException("TCO sheet needs column " + col + " in " + t.columns());
                }
            }
            if (t.size() > MAX_ROWS) {
                throw new IllegalArgumentException(t.table() + " has " + t.size() + " rows; a workbook holds at "
                        + "most " + MAX_ROWS);
            }
        }
        XSSFWorkbook wb = new XSSFWorkbook();
        Styles s = new Styles(wb);
        Map<String, Integer> chipRow = assumptions(wb, s, chipCosts(tables));
        for (ResultRows t : tables) {
            dataSheet(wb, s, t, chipRow);
        }
        aboutSheet(wb, s);
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

    private Map<String, Integer> assumptions(XSSFWorkbook wb, Styles s, Map<String, ChipCost> chips) {
        Sheet sh = wb.createSheet(ASSUMPTIONS);
        cell(sh, 0, 0, "TCO assumptions", s.title);
        cell(sh, 1, 0, "Edit the shaded blue cells: every cost column on the other sheets recalculates. Defaults: "
                + "io.ridgeline.engine.cost.TcoParameters (MODEL.md sec. 8).", null);
        int header = FIRST_ASSUMPTION_ROW - 2;
        String[] heads = {"Parameter", "Value", "Unit", "Source"};
        for (int i = 0; i < heads.length; i++) {
            cell(sh, header, i, heads[i], s.header);
        }
        for (TcoAssumption x : TcoAssumption.values()) {
            int r = FIRST_ASSUMPTION_ROW - 1 + x.ordinal();
            double v = x == TcoAssumption.RUN_TOKENS ? runTokens : x.value(parameters);
            cell(sh, r, 0, x.label(), null);
            Cell c = sh.getRow(r).createCell(1);
            c.setCellValue(v);
            c.setCellStyle(x == TcoAssumption.HOURS_PER_YEAR ? s.constant : s.input);
            cell(sh, r, 2, x.unit(), null);
            cell(sh, r, 3, x.source(), null);
        }
        int chipHeader = FIRST_ASSUMPTION_ROW - 1 + TcoAssumption.values().length + 1;
        String[] chipHeads = {"Chip", "Price [USD/GPU]", "TDP [W/GPU]", "Source"};
        for (int i = 0; i < chipHeads.length; i++) {
            cell(sh, chipHeader, i, chipHeads[i], s.header);
        }
        Map<String, Integer> rows = new LinkedHashMap<>();
        int r = chipHeader + 1;
        for (ChipCost c : chips.values()) {
            cell(sh, r, 0, c.chip(), null);
            Cell price = sh.getRow(r).createCell(1);
            price.setCellValue(c.priceUsd());
            price.setCellStyle(s.input);
            Cell tdp = sh.getRow(r).createCell(2);
            tdp.setCellValue(c.tdpWatts());
            tdp.setCellStyle(s.input);
            cell(sh, r, 3, c.source(), null);
            rows.put(c.chip(), r + 1);
            r++;
        }
        sh.setColumnWidth(0, 44 * 256);
        sh.setColumnWidth(1, 16 * 256);
        sh.setColumnWidth(2, 14 * 256);
        sh.setColumnWidth(3, 100 * 256);
        return rows;
    }

    private void dataSheet(XSSFWorkbook wb, Styles s, ResultRows t, Map<String, Integer> chipRow) {
        Sheet sh = wb.createSheet(sheetName(t.table()));
        Row head = sh.createRow(0);
        List<String> cols = t.columns();
        for (int i = 0; i < cols.size(); i++) {
            Cell c = head.createCell(i);
            c.setCellValue(ColumnSelector.header(t.table(), cols.get(i)));
            c.setCellStyle(s.header);
        }
        for (int j = 0; j < FORMULAS.size(); j++) {
            Cell c = head.createCell(cols.size() + j);
            c.setCellValue(FORMULAS.get(j).header());
            c.setCellStyle(s.formulaHeader);
        }
        String gpuCol = CellReference.convertNumToColString(t.index("gpu_count"));
        String stepCol = CellReference.convertNumToColString(t.index("step_time_s"));
        String tpsCol = CellReference.convertNumToColString(t.index("tokens_per_s"));
        CellStyle[] formats = new CellStyle[FORMULAS.size()];
        for (int j = 0; j < FORMULAS.size(); j++) {
            formats[j] = s.number(FORMULAS.get(j).format());
        }
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
            int excelRow = i + 2;
            Integer cr = chipRow.get(t.text(i, "chip"));
            if (cr == null) {
                throw new IllegalStateException("chip without an Assumptions row: " + t.text(i, "chip"));
            }
            Map<String, String> own = new LinkedHashMap<>();
            RowRefs refs = new RowRefs(excelRow, gpuCol + excelRow, stepCol + excelRow, tpsCol + excelRow,
                    ASSUMPTIONS + "!$B$" + cr, ASSUMPTIONS + "!$C$" + cr, own);
            for (int j = 0; j < FORMULAS.size(); j++) {
                Formula f = FORMULAS.get(j);
                int col = cols.size() + j;
                Cell c = row.createCell(col);
                c.setCellFormula(f.text().at(refs));
                c.setCellStyle(formats[j]);
                own.put(f.header(), CellReference.convertNumToColString(col) + excelRow);
            }
        }
        sh.createFreezePane(0, 1);
        int last = cols.size() + FORMULAS.size() - 1;
        sh.setAutoFilter(new CellRangeAddress(0, Math.max(0, t.size()), 0, last));
        for (int i = 0; i <= last; i++) {
            String h = head.getCell(i).getStringCellValue();
            sh.setColumnWidth(i, Math.min(40, Math.max(10, h.length() + 3)) * 256);
        }
    }

    private void aboutSheet(XSSFWorkbook wb, Styles s) {
        Sheet sh = wb.createSheet(ABOUT);
        int r = 0;
        cell(sh, r++, 0, "Ridgeline TCO workbook", s.title);
        for (Map.Entry<String, String> e : about.entrySet()) {
            cell(sh, r, 0, e.getKey(), s.header);
            cell(sh, r++, 1, e.getValue(), null);
        }
        r++;
        cell(sh, r, 0, "Computed column", s.header);
        cell(sh, r++, 1, "Formula (cells on the Assumptions sheet; one row's own columns)", s.header);
        for (Formula f : FORMULAS) {
            cell(sh, r, 0, f.header(), null);
            cell(sh, r++, 1, f.meaning(), null);
        }
        r++;
        cell(sh, r++, 0, "Network cost is the interconnect share of cluster capex (TcoModel.gpuHour(price, tdp)); "
                + "sweeps that price a fabric per topology are not reflected here.", null);
        cell(sh, r, 0, "Result columns keep their schema names with units in brackets; see docs/RESULTS.md.", null);
        sh.setColumnWidth(0, 40 * 256);
        sh.setColumnWidth(1, 100 * 256);
    }

    private static void cell(Sheet sh, int row, int col, String text, CellStyle style) {
        Row r = sh.getRow(row) == null ? sh.createRow(row) : sh.getRow(row);
        Cell c = r.createCell(col);
        c.setCellValue(text);
        if (style != null) {
            c.setCellStyle(style);
        }
    }

    /** Cell styles, created once per workbook (Excel caps the number of styles). */
    private static final class Styles {
        final XSSFWorkbook wb;
        final CellStyle title;
        final CellStyle header;
        final CellStyle formulaHeader;
        final CellStyle input;
        final CellStyle constant;
        final Map<String, CellStyle> numbers = new LinkedHashMap<>();

        Styles(XSSFWorkbook wb) {
            this.wb = wb;
            Font bold = wb.createFont();
            bold.setBold(true);
            Font big = wb.createFont();
            big.setBold(true);
            big.setFontHeightInPoints((short) 14);
            title = wb.createCellStyle();
            title.setFont(big);
            header = wb.createCellStyle();
            header.setFont(bold);
            header.setBorderBottom(BorderStyle.THIN);
            formulaHeader = wb.createCellStyle();
            formulaHeader.cloneStyleFrom(header);
            formulaHeader.setFillForegroundColor(IndexedColors.LIGHT_GREEN.getIndex());
            formulaHeader.setFillPattern(FillPatternType.SOLID_FOREGROUND);
            // Finance convention: blue = input you may change.
            Font blue = wb.createFont();
            blue.setColor(IndexedColors.BLUE.getIndex());
            input = wb.createCellStyle();
            input.setFont(blue);
            input.setFillForegroundColor(IndexedColors.LIGHT_TURQUOISE.getIndex());
            input.setFillPattern(FillPatternType.SOLID_FOREGROUND);
            input.setDataFormat(wb.createDataFormat().getFormat("General"));
            constant = wb.createCellStyle();
        }

        CellStyle number(String format) {
            return numbers.computeIfAbsent(format, f -> {
                CellStyle st = wb.createCellStyle();
                st.setDataFormat(wb.createDataFormat().getFormat(f));
                return st;
            });
        }
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
