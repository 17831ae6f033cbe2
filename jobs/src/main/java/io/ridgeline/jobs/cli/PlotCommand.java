package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.jobs.report.ColumnSelector;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * {@code ridgeline plot frontier|latency-throughput|breakdown|roofline|series|sensitivity}: PNG and SVG charts from a
 * run's results (DuckDB, no Spark) or, for the roofline, from the chip catalogue alone.
 */
@Command(name = "plot", mixinStandardHelpOptions = true,
        description = "Draw PNG or SVG charts: frontier scatter, serving latency-throughput, step-time breakdown, chip "
                + "roofline, +10%% sensitivity, lines/bars over a query.",
        subcommands = {PlotFrontier.class, PlotLatencyThroughput.class, PlotBreakdown.class, PlotRoofline.class,
            PlotSeries.class, PlotSensitivity.class})
public final class PlotCommand implements Runnable {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
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
