package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.report.ColumnSelector;
import io.ridgeline.jobs.report.FrontierChart;
import io.ridgeline.jobs.report.ResultRows;
import org.jfree.data.xy.XYSeriesCollection;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Every feasible point of a run on two columns, coloured by a label column, with each frontier group's Pareto points
 * joined: {@code plot frontier} and {@code plot latency-throughput}, which differ in their default columns and title
 * only (the option defaults are the fields' initial values, set by each command).
 */
abstract class FrontierScatter extends RunCommand {
    @Mixin
    PlotOutput output = new PlotOutput();

    @Option(names = "--x", description = "Column on the x axis (default: ${DEFAULT-VALUE}).")
    String x;

    @Option(names = "--y", description = "Column on the y axis (default: ${DEFAULT-VALUE}).")
    String y;

    @Option(names = "--color-by", description = "Label column that picks the colour (default: ${DEFAULT-VALUE}).")
    String colorBy = "chip";

    @Option(names = "--scale", description = "auto (log when an axis spans > 30x), log or linear (default: "
            + "${DEFAULT-VALUE}).")
    String scale = "auto";

    private final String kind;
    private FrontierChart.Scale parsedScale;

    /**
     * @param kind the title's first word, e.g. "Frontier" (the title is "kind: y vs x"); lower-cased, the file name's
     *             first part (plots/frontier-RUN.png)
     */
    FrontierScatter(String x, String y, String kind) {
        this.x = x;
        this.y = y;
        this.kind = kind;
    }

    @Override
    void check(List<InputError> errors) {
        output.checkSize();
        parsedScale = PlotCommand.parseEnum(FrontierChart.Scale.class, scale, "--scale");
    }

    @Override
    List<String> tables() {
        return List.of("frontier");
    }

    @Override
    void run(Duck duck, String runId) throws SQLException, IOException {
        Connection c = duck.connection;
        String source = duck.views.contains("points") ? "points" : "frontier";
        Set<String> available = ColumnSelector.available(c, source);
        List<InputError> errors = new ArrayList<>();
        String where = results.out().resolve(source).toString();
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
            throw new InvalidInputException(InputError.of(results.out().resolve(source).toString(), x + ", " + y,
                    "rows with numbers in both columns for run " + runId, "none"));
        }
        String objectives = PlotCommand.objectives(c, runId);
        String subtitle = "run " + runId + "; " + points.size() + " feasible " + (source.equals("points")
                ? "points" : "frontier rows") + (objectives.isEmpty() ? "" : "; frontier over "
                + objectives.replace(",", ", "));
        String title = kind + ": " + y + " vs " + x;
        String wrote = output.write(FrontierChart.chart(ds, source, x, y, title, subtitle, parsedScale),
                kind.toLowerCase(Locale.ROOT), runId);
        System.out.printf("wrote %s, %d points, %d frontier rows, %d series)%n", wrote, points.size(),
                frontier.size(), ds.getSeriesCount());
    }
}
