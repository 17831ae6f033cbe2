package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.report.ColumnSelector;
import io.ridgeline.jobs.report.ResultRows;
import io.ridgeline.jobs.report.SeriesChart;
import org.jfree.data.category.DefaultCategoryDataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code ridgeline plot series}: lines or bars over the rows of any SQL query. */
@Command(name = "series", mixinStandardHelpOptions = true,
        description = "Lines, grouped bars or stacked bars over the rows of any SQL query (views points, "
                + "frontier, runs; DuckDB functions such as read_csv_auto work too): categories from --x in row "
                + "order, one series per --y column or per --series value.")
public final class PlotSeries implements Callable<Integer> {
    @Mixin
    PlotOutput output = new PlotOutput();

    @Mixin
    OutputDirectory out = new OutputDirectory();

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
        output.checkSize();
        SeriesChart.Kind k = PlotCommand.parseEnum(SeriesChart.Kind.class, kind, "--kind");
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
        try (Duck duck = new Duck(out.path())) {
            ResultRows rows;
            try (PreparedStatement st = duck.connection.prepareStatement(query);
                 ResultSet rs = st.executeQuery()) {
                rows = ResultRows.read("query", rs);
            } catch (SQLException e) {
                throw new InvalidInputException(InputError.of("--query", "query", "a SQL query over the views "
                        + duck.views + " of " + out, ReadOnlyQuery.firstLine(e)));
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
            String wrote = output.write(SeriesChart.chart(ds, k, title, subtitle, xLabel == null ? x : xLabel,
                    yLabel == null ? String.join(", ", y) : yLabel, logY, valueLabels), "series",
                    k.name().toLowerCase(Locale.ROOT));
            System.out.printf("wrote %s, %d categories, %d series)%n", wrote, ds.getColumnCount(),
                    ds.getRowCount());
        }
        return 0;
    }
}
