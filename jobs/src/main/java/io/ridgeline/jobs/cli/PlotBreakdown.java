package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.report.BreakdownChart;
import io.ridgeline.jobs.report.ColumnSelector;
import io.ridgeline.jobs.report.ResultRows;
import org.jfree.data.category.DefaultCategoryDataset;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code ridgeline plot breakdown}: stacked step-time bars of a run's frontier (or points). */
@Command(name = "breakdown", mixinStandardHelpOptions = true,
        description = "Stacked bars of each plan's step time: compute, memory-bound, TP/CP/EP/PP/DP "
                + "communication, bubble, optimizer, overhead.")
public final class PlotBreakdown extends TablePlot {
    @Option(names = "--limit", defaultValue = "24", description = "At most this many bars (default: "
            + "${DEFAULT-VALUE}).")
    int limit;

    @Override
    void checkPlotOptions(List<InputError> errors) {
        if (limit < 1 || limit > 200) {
            errors.add(InputError.of("--limit", "limit", "a bar count in [1, 200]", String.valueOf(limit)));
        }
    }

    @Override
    void run(Duck duck, String runId) throws SQLException, IOException {
        Connection c = duck.connection;
        Set<String> available = ColumnSelector.available(c, table);
        List<String> cols = new ArrayList<>();
        for (String col : List.of("model", "chip", "gpu_count", "tp", "pp", "dp", "cp", "ep", "micro_batch",
                "step_time_s")) {
            if (available.contains(col)) {
                cols.add(col);
            }
        }
        ColumnSelector.check(List.of("chip", "gpu_count", "step_time_s"), available,
                results.out().resolve(table).toString(), "breakdown");
        BreakdownChart.columns().stream().filter(available::contains).forEach(cols::add);
        String order = table.equals("frontier") ? "model, step_time_s" : "step_time_s";
        ResultRows rows = results.query(c, table, cols, runId, "step_time_s IS NOT NULL", order, limit);
        DefaultCategoryDataset ds = BreakdownChart.dataset(rows);
        if (rows.size() == 0 || ds.getRowCount() == 0) {
            throw new InvalidInputException(InputError.of(results.out().resolve(table).toString(), "step_time_s",
                    "feasible rows for run " + runId, "none"));
        }
        String subtitle = "run " + runId + "; " + rows.size() + " rows, fastest first per model; bars sum to "
                + "step_time_s";
        String wrote = output.write(BreakdownChart.chart(ds, "Step-time breakdown (" + table + ")", subtitle,
                output.height), "breakdown", runId);
        System.out.printf("wrote %s, %d bars, %d components)%n", wrote, ds.getColumnCount(), ds.getRowCount());
        // Every bar's shares, whether or not the chart had room to print them under the bars.
        for (int i = 0; i < ds.getColumnCount(); i++) {
            System.out.printf("  %s: %s%n", ds.getColumnKey(i), BreakdownChart.shares(ds, i));
        }
    }
}
