package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.report.ColumnSelector;
import io.ridgeline.jobs.report.FrontierChart;
import io.ridgeline.jobs.report.ResultRows;
import org.jfree.data.xy.XYSeriesCollection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/** {@code ridgeline plot frontier}: every feasible point of a run on two columns, with the frontier joined. */
@Command(name = "frontier", mixinStandardHelpOptions = true,
        description = "Scatter of every feasible point on two columns, coloured by chip (or --color-by), with "
                + "each frontier group's Pareto points joined.")
public final class PlotFrontier implements Callable<Integer> {
    @Mixin
    PlotOutput output = new PlotOutput();

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
        return draw(output, results, x, y, colorBy, scale, "Frontier: " + y + " vs " + x, "frontier");
    }

    /**
     * Draws every feasible point of the run on {@code x} and {@code y}, coloured by {@code colorBy}, with each frontier
     * group joined, to the files of {@code output} named after {@code chart} (shared by the frontier plot kinds).
     */
    static int draw(PlotOutput output, ResultsOptions results, String x, String y, String colorBy, String scale,
                    String title, String chart) throws SQLException, IOException {
        output.checkSize();
        FrontierChart.Scale sc = PlotCommand.parseEnum(FrontierChart.Scale.class, scale, "--scale");
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
            String objectives = PlotCommand.objectives(c, runId);
            String subtitle = "run " + runId + "; " + points.size() + " feasible " + (source.equals("points")
                    ? "points" : "frontier rows") + (objectives.isEmpty() ? "" : "; frontier over "
                    + objectives.replace(",", ", "));
            String wrote = output.write(FrontierChart.chart(ds, source, x, y, title, subtitle, sc), chart, runId);
            System.out.printf("wrote %s, %d points, %d frontier rows, %d series)%n", wrote, points.size(),
                    frontier.size(), ds.getSeriesCount());
        }
        return 0;
    }
}
