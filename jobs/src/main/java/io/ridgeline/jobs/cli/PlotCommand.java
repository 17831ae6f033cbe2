package io.ridgeline.jobs.cli;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.jobs.report.BreakdownChart;
import io.ridgeline.jobs.report.ColumnSelector;
import io.ridgeline.jobs.report.FrontierChart;
import io.ridgeline.jobs.report.Png;
import io.ridgeline.jobs.report.ResultRows;
import io.ridgeline.jobs.report.RooflineChart;
import io.ridgeline.jobs.report.SeriesChart;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.xy.XYSeriesCollection;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code ridgeline plot frontier|breakdown|roofline}: PNG charts from a run's results (DuckDB, no Spark) or, for the
 * roofline, from the chip catalogue alone.
 */
@Command(name = "plot", mixinStandardHelpOptions = true,
        description = "Draw PNG charts: frontier scatter, step-time breakdown, chip roofline, lines/bars over a query.",
        subcommands = {PlotCommand.Frontier.class, PlotCommand.Breakdown.class, PlotCommand.Roofline.class,
                PlotCommand.Series.class})
public final class PlotCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /** Options every chart shares. */
    static final class Common {
        @Option(names = "--png", description = "Output file (default: plots/<chart>-<run>.png).")
        Path png;

        @Option(names = "--width", defaultValue = "1200", description = "Width in pixels (default: ${DEFAULT-VALUE}).")
        int width;

        @Option(names = "--height", defaultValue = "800", description = "Height in pixels (default: "
                + "${DEFAULT-VALUE}).")
        int height;

        void checkSize() {
            List<InputError> errors = new ArrayList<>();
            for (Object[] d : new Object[][]{{"--width", width}, {"--height", height}}) {
                int v = (Integer) d[1];
                if (v < 100 || v > 10_000) {
                    errors.add(InputError.of((String) d[0], ((String) d[0]).substring(2), "pixels in [100, 10000]",
                            String.valueOf(v)));
                }
            }
            if (!errors.isEmpty()) {
                throw new InvalidInputException(errors);
            }
        }

        Path file(String chart, String id) {
            return png != null ? png : Path.of("plots", chart + "-" + id + ".png");
        }
    }

    @Command(name = "frontier", mixinStandardHelpOptions = true,
            description = "Scatter of every feasible point on two columns, coloured by chip (or --color-by), with "
                    + "each frontier group's Pareto points joined.")
    public static final class Frontier implements Callable<Integer> {
        @Mixin
        Common common = new Common();

        @Mixin
        ResultsOptions results = new ResultsOptions();

        @Option(names = "--x", defaultValue = "cost_usd", description = "Column on the x axis (default: "
                + "${DEFAULT-VALUE}).")
        String x;

        @Option(names = "--y", defaultValue = "tokens_per_s", description = "Column on the y axis (default: "
                + "${DEFAULT-VALUE}).")
        String y;

        @Option(names = "--color-by", defaultValue = "chip", description = "Label column that picks the colour "
                + "(default: ${DEFAULT-VALUE}).")
        String colorBy;

        @Option(names = "--scale", defaultValue = "auto", description = "auto (log when an axis spans > 30x), log "
                + "or linear (default: ${DEFAULT-VALUE}).")
        String scale;

        @Override
        public Integer call() throws SQLException, IOException {
            common.checkSize();
            FrontierChart.Scale sc = parseEnum(FrontierChart.Scale.class, scale, "--scale");
            try (Duck duck = new Duck(results.out)) {
                Connection c = duck.connection;
                ExportCommand.requireViews(duck, results.out, List.of("frontier"));
                String runId = results.runId(c);
                String source = duck.views.contains("points") ? "points" : "frontier";
                Set<String> available = ColumnSelector.available(c, source);
                List<InputError> errors = new ArrayList<>();
                String where = results.out.resolve(source).toString();
                ColumnSelector.checkOne(x, available, where, "--x", errors);
                ColumnSelector.checkOne(y, available, where, "--y", errors);
                ColumnSelector.checkOne(colorBy, available, where, "--color-by", errors);
                if (!errors.isEmpty()) {
                    throw new InvalidInputException(errors);
                }
                List<String> cols = new ArrayList<>(new LinkedHashSet<>(List.of(x, y, colorBy)));
                String feasible = available.contains("status") ? "status = 'ok'" : null;
                ResultRows points = results.query(c, source, cols, runId, feasible, null, 0);
                List<String> fcols = new ArrayList<>(cols);
                fcols.add("frontier_group");
                ResultRows frontier = results.query(c, "frontier", fcols, runId, null, "frontier_group", 0);
                XYSeriesCollection ds = FrontierChart.dataset(points, frontier, x, y, colorBy);
                if (ds.getSeriesCount() == 0) {
                    throw new InvalidInputException(InputError.of(results.out.resolve(source).toString(), x + ", "
                            + y, "rows with numbers in both columns for run " + runId, "none"));
                }
                String objectives = objectives(c, runId);
                Path f = common.file("frontier", runId);
                Png.write(FrontierChart.chart(ds, source, x, y, "Frontier: " + y + " vs " + x,
                        "run " + runId + "; " + points.size() + " feasible " + (source.equals("points") ? "points" : "frontier rows")
                                + (objectives.isEmpty() ? "" : "; frontier over " + objectives.replace(",", ", ")), sc), f,
                        common.width, common.height);
                System.out.printf("wrote %s (%dx%d px, %d points, %d frontier rows, %d series)%n", f, common.width,
                        common.height, points.size(), frontier.size(), ds.getSeriesCount());
            }
            return 0;
        }
    }

    @Command(name = "breakdown", mixinStandardHelpOptions = true,
            description = "Stacked bars of each plan's step time: compute, memory-bound, TP/CP/EP/PP/DP "
                    + "communication, bubble, optimizer, overhead.")
    public static final class Breakdown implements Callable<Integer> {
        @Mixin
        Common common = new Common();

        @Mixin
        ResultsOptions results = new ResultsOptions();

        @Option(names = "--table", defaultValue = "frontier", description = "frontier or points (default: "
                + "${DEFAULT-VALUE}).")
        String table;

        @Option(names = "--limit", defaultValue = "24", description = "At most this many bars (default: "
                + "${DEFAULT-VALUE}).")
        int limit;

        @Override
        public Integer call() throws SQLException, IOException {
            common.checkSize();
            List<InputError> errors = new ArrayList<>();
            ExportCommand.checkNames(List.of(table), ExportCommand.TABLES, "--table", errors);
            if (limit < 1 || limit > 200) {
                errors.add(InputError.of("--limit", "limit", "a bar count in [1, 200]", String.valueOf(limit)));
            }
            if (!errors.isEmpty()) {
                throw new InvalidInputException(errors);
            }
            try (Duck duck = new Duck(results.out)) {
                Connection c = duck.connection;
                ExportCommand.requireViews(duck, results.out, List.of(table));
                String runId = results.runId(c);
                Set<String> available = ColumnSelector.available(c, table);
                List<String> cols = new ArrayList<>();
                for (String col : List.of("model", "chip", "gpu_count", "tp", "pp", "dp", "cp", "ep",
                        "micro_batch", "step_time_s")) {
                    if (available.contains(col)) {
                        cols.add(col);
                    }
                }
                ColumnSelector.check(List.of("chip", "gpu_count", "step_time_s"), available,
                        results.out.resolve(table).toString(), "breakdown");
                BreakdownChart.columns().stream().filter(available::contains).forEach(cols::add);
                String order = table.equals("frontier") ? "model, step_time_s" : "step_time_s";
                ResultRows rows = results.query(c, table, cols, runId, "step_time_s IS NOT NULL", order, limit);
                DefaultCategoryDataset ds = BreakdownChart.dataset(rows);
                if (rows.size() == 0 || ds.getRowCount() == 0) {
                    throw new InvalidInputException(InputError.of(results.out.resolve(table).toString(),
                            "step_time_s", "feasible rows for run " + runId, "none"));
                }
                Path f = common.file("breakdown", runId);
                Png.write(BreakdownChart.chart(ds, "Step-time breakdown (" + table + ")", "run " + runId + "; "
                        + rows.size() + " rows, fastest first per model; bars sum to step_time_s"), f, common.width,
                        common.height);
                System.out.printf("wrote %s (%dx%d px, %d bars, %d components)%n", f, common.width, common.height,
                        ds.getColumnCount(), ds.getRowCount());
                for (int i = 0; i < Math.min(5, ds.getColumnCount()); i++) {
                    System.out.printf("  %s: %s%n", ds.getColumnKey(i), BreakdownChart.shares(ds, i));
                }
            }
            return 0;
        }
    }

    @Command(name = "roofline", mixinStandardHelpOptions = true,
            description = "Attainable FLOP/s against arithmetic intensity for a catalogue chip, datasheet and "
                    + "sustained ceilings, with GEMM shapes placed by the engine's GEMM model.")
    public static final class Roofline implements Callable<Integer> {
        @Mixin
        Common common = new Common();

        @Option(names = "--gpu", required = true, description = "Chip id from the catalogue, e.g. h100-sxm.")
        String gpu;

        @Option(names = "--precision", defaultValue = "bf16", description = "Math precision (default: "
                + "${DEFAULT-VALUE}).")
        String precision;

        @Option(names = "--gemm", split = ",", description = "GEMM shapes MxNxK to mark, or 'none' (default: a "
                + "GPT-3 175B layer's GEMMs at 4096 and 16 tokens, and squares).")
        List<String> gemm;

        @Override
        public Integer call() throws IOException {
            common.checkSize();
            Chip chip = HardwareCatalog.bundled().chip(gpu);
            Precision p = Precision.parse(precision);
            List<InputError> errors = new ArrayList<>();
            List<String> precisions = Arrays.stream(Precision.values()).map(Precision::id).toList();
            if (p == null) {
                errors.add(InputError.of("--precision", "precision", Names.expectedOneOf(precision, precisions),
                        "'" + precision + "'"));
            } else if (!chip.supports(p)) {
                List<String> native_ = Arrays.stream(Precision.values()).filter(chip::supports).map(Precision::id)
                        .toList();
                errors.add(InputError.of("--precision", "precision", "a format " + gpu + " runs natively: one of "
                        + native_, "'" + precision + "'"));
            }
            List<RooflineChart.Gemm> shapes = new ArrayList<>();
            if (gemm == null) {
                shapes.addAll(RooflineChart.DEFAULT_GEMMS);
            } else if (!(gemm.size() == 1 && gemm.get(0).equalsIgnoreCase("none"))) {
                for (int i = 0; i < gemm.size(); i++) {
                    RooflineChart.Gemm g = RooflineChart.Gemm.parse(gemm.get(i));
                    if (g == null) {
                        errors.add(InputError.of("--gemm", "gemm[" + i + "]", "MxNxK with positive integers, e.g. "
                                + "4096x4096x4096", "'" + gemm.get(i) + "'"));
                    } else {
                        shapes.add(g);
                    }
                }
            }
            if (!errors.isEmpty()) {
                throw new InvalidInputException(errors);
            }
            XYSeriesCollection ds = RooflineChart.dataset(chip, p, shapes);
            Path f = common.file("roofline", gpu + "-" + p.id());
            Png.write(RooflineChart.chart(ds, chip, p, shapes), f, common.width, common.height);
            System.out.printf("wrote %s (%dx%d px, %d series)%n", f, common.width, common.height,
                    ds.getSeriesCount());
            for (int i = 0; i < shapes.size(); i++) {
                RooflineChart.Gemm g = shapes.get(i);
                System.out.printf(Locale.ROOT, "  %-20s %8.1f FLOP/byte  %7.1f TFLOP/s%n", g.label(),
                        g.intensity(p), ds.getSeries(2).getY(i).doubleValue() / 1e12);
            }
            return 0;
        }
    }

    @Command(name = "series", mixinStandardHelpOptions = true,
            description = "Lines, grouped bars or stacked bars over the rows of any SQL query (views points, "
                    + "frontier, runs; DuckDB functions such as read_csv_auto work too): categories from --x in row "
                    + "order, one series per --y column or per --series value.")
    public static final class Series implements Callable<Integer> {
        @Mixin
        Common common = new Common();

        @Option(names = "--out", defaultValue = "results", description = "Results directory (default: "
                + "${DEFAULT-VALUE}).")
        Path out;

        @Option(names = "--query", required = true, description = "SQL giving the rows, in plotting order.")
        String query;

        @Option(names = "--x", required = true, description = "Label column: the categories.")
        String x;

        @Option(names = "--y", required = true, split = ",", description = "Numeric column(s).")
        List<String> y;

        @Option(names = "--series", description = "Label column splitting the single --y column into series.")
        String series;

        @Option(names = "--labels", split = ",", description = "Legend labels for the --y columns.")
        List<String> labels;

        @Option(names = "--kind", defaultValue = "line", description = "line, bar or stacked (default: "
                + "${DEFAULT-VALUE}).")
        String kind;

        @Option(names = "--log-y", description = "Logarithmic value axis.")
        boolean logY;

        @Option(names = "--value-labels", description = "Print each value on the chart.")
        boolean valueLabels;

        @Option(names = "--title", defaultValue = "", description = "Chart title.")
        String title;

        @Option(names = "--subtitle", defaultValue = "", description = "Chart subtitle.")
        String subtitle;

        @Option(names = "--x-label", description = "Category axis label (default: the --x column).")
        String xLabel;

        @Option(names = "--y-label", description = "Value axis label (default: the --y column(s)).")
        String yLabel;

        @Override
        public Integer call() throws SQLException, IOException {
            common.checkSize();
            SeriesChart.Kind k = parseEnum(SeriesChart.Kind.class, kind, "--kind");
            List<InputError> errors = new ArrayList<>();
            if (series != null && y.size() != 1) {
                errors.add(InputError.of("--series", "series", "exactly one --y column with --series", y.toString()));
            }
            if (labels != null && labels.size() != y.size()) {
                errors.add(InputError.of("--labels", "labels", "one label per --y column (" + y.size() + ")",
                        labels.size() + " labels"));
            }
            if (!errors.isEmpty()) {
                throw new InvalidInputException(errors);
            }
            try (Duck duck = new Duck(out)) {
                ResultRows rows;
                try (PreparedStatement st = duck.connection.prepareStatement(query);
                     ResultSet rs = st.executeQuery()) {
                    rows = ResultRows.read("query", rs);
                } catch (SQLException e) {
                    String msg = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
                    throw new InvalidInputException(InputError.of("--query", "query", "a SQL query over the views "
                            + duck.views + " of " + out, msg));
                }
                List<String> needed = new ArrayList<>(y);
                needed.add(x);
                if (series != null) {
                    needed.add(series);
                }
                ColumnSelector.check(needed, new LinkedHashSet<>(rows.columns()), "--query", "series");
                DefaultCategoryDataset ds = SeriesChart.dataset(rows, x, y, series, labels);
                if (ds.getColumnCount() == 0) {
                    throw new InvalidInputException(InputError.of("--query", "query", "rows with numbers in " + y,
                            "none"));
                }
                Path f = common.file("series", k.name().toLowerCase(Locale.ROOT));
                Png.write(SeriesChart.chart(ds, k, title, subtitle, xLabel == null ? x : xLabel,
                        yLabel == null ? String.join(", ", y) : yLabel, logY, valueLabels), f, common.width,
                        common.height);
                System.out.printf("wrote %s (%dx%d px, %d categories, %d series)%n", f, common.width, common.height,
                        ds.getColumnCount(), ds.getRowCount());
            }
            return 0;
        }
    }

    static <E extends Enum<E>> E parseEnum(Class<E> type, String value, String flag) {
        List<String> names = Arrays.stream(type.getEnumConstants()).map(e -> e.name().toLowerCase(Locale.ROOT))
                .toList();
        int i = names.indexOf(value.toLowerCase(Locale.ROOT));
        if (i < 0) {
            throw new InvalidInputException(InputError.of(flag, flag.substring(2), Names.expectedOneOf(value, names),
                    "'" + value + "'"));
        }
        return type.getEnumConstants()[i];
    }

    /** The run's objectives as the manifest states them, or "". */
    static String objectives(Connection c, String runId) throws SQLException {
        if (!ColumnSelector.available(c, "runs").contains("objectives")) {
            return "";
        }
        try (PreparedStatement st = c.prepareStatement("SELECT objectives FROM runs WHERE run_id = ?")) {
            st.setString(1, runId);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() && rs.getString(1) != null ? rs.getString(1) : "";
            }
        }
    }
}
