package io.ridgeline.jobs.report;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/** Picks the run a report is about: the one asked for, or the latest committed one. */
public final class RunSelector {
    private RunSelector() {
    }

    /** Committed run ids (those with a manifest row), oldest first by finish time. */
    public static List<String> committedRuns(Connection c) throws SQLException {
        List<String> runs = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(
                "SELECT run_id FROM runs ORDER BY finished_at NULLS FIRST, run_id")) {
            while (rs.next()) {
                runs.add(rs.getString(1));
            }
        }
        return runs;
    }

    /**
     * The requested run, or the latest when {@code requested} is null.
     *
     * @param runsSource where the runs live, for messages (e.g. {@code results/runs})
     */
    public static String resolve(Connection c, String requested, String runsSource) throws SQLException {
        List<String> runs = committedRuns(c);
        if (runs.isEmpty()) {
            throw new InvalidInputException(InputError.of(runsSource, "run_id", "at least one committed run",
                    "no runs"));
        }
        if (requested == null) {
            return runs.get(runs.size() - 1);
        }
        if (!runs.contains(requested)) {
            throw new InvalidInputException(InputError.of(runsSource, "--run", "a committed run id: "
                    + Names.expectedOneOf(requested, runs), "'" + requested + "'"));
        }
        return requested;
    }
}
