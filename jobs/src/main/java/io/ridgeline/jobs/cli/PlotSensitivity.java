package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.report.ColumnSelector;
import io.ridgeline.jobs.report.ResultRows;
import io.ridgeline.jobs.report.SensitivityChart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * {@code ridgeline plot sensitivity}: the +10% speed-ups of a run made with {@code output.sensitivity: true}: bars for
 * one point ({@code --point}), or their distribution over the frontier's (or points') rows.
 */
@Command(name = "sensitivity", mixinStandardHelpOptions = true,
        description = "Speed-up of tokens/s from +10%% of each resource (output.sensitivity): bars for one point "
                + "(--point), else the distribution over the table's rows.")
public final class PlotSensitivity extends TablePlot {
    @Option(names = "--point", description = "point_index of the row to draw (its first row); default: the "
            + "distribution over all rows.")
    Long point;

    @Override
    void run(Duck duck, String runId) throws SQLException, IOException {
        Connection c = duck.connection;
        Set<String> available = ColumnSelector.available(c, table);
        List<String> cols = new ArrayList<>(List.of("point_index", "chip", "gpu_count", "invest_first"));
        cols.addAll(SensitivityChart.columns());
        ColumnSelector.check(cols, available, results.out().resolve(table).toString(), "sensitivity");
        String where = "sens_flops_search_fraction IS NOT NULL"
                + (point == null ? "" : " AND point_index = " + point);
        ResultRows rows = results.query(c, table, cols, runId, where, "point_index", point == null ? 0 : 1);
        if (rows.size() == 0) {
            throw new InvalidInputException(InputError.of(results.out().resolve(table).toString(),
                    "sens_flops_search_fraction", "rows with sensitivities (a run with output.sensitivity: true)"
                            + (point == null ? "" : " at point_index " + point), "none in run " + runId));
        }
        String wrote;
        if (point != null) {
            String sub = "run " + runId + ", point " + point + " (" + rows.text(0, "chip") + " x "
                    + rows.text(0, "gpu_count") + "); invest first per dollar: " + rows.text(0, "invest_first");
            wrote = output.write(SensitivityChart.point(rows, 0, "Speed-up from +10% of one resource", sub),
                    "sensitivity-" + point, runId);
        } else {
            Map<String, Integer> first = new TreeMap<>();
            for (int i = 0; i < rows.size(); i++) {
                first.merge(rows.text(i, "invest_first").isEmpty() ? "none" : rows.text(i, "invest_first"), 1,
                        Integer::sum);
            }
            String sub = "run " + runId + ", " + rows.size() + " " + table + " rows; invest first per dollar: "
                    + first;
            wrote = output.write(SensitivityChart.distribution(rows, "Speed-up from +10% of one resource ("
                    + table + ")", sub), "sensitivity", runId);
            System.out.printf("invest_first over %d rows: %s%n", rows.size(), first);
        }
        System.out.printf("wrote %s)%n", wrote);
    }
}
