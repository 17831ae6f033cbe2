package io.ridgeline.jobs.report;

import java.sql.SQLException;
import java.util.List;
import java.util.Set;

/**
 * One run's rows as a report reads them: the results views of one directory, filtered to the run (and to whatever the
 * command's own filter says). The CLI implements it over DuckDB with the options export and plot share.
 */
public interface RunQuery {
    /** The run id the rows belong to. */
    String runId();

    /** The views that exist (points, frontier, runs; points is absent when a sweep wrote none). */
    Set<String> views();

    /** The columns a view has (older runs may lack newer optional columns). */
    Set<String> columns(String view) throws SQLException;

    /** The run's rows of a view with these columns; {@code extraWhere} and {@code orderBy} are SQL or null. */
    ResultRows rows(String view, List<String> columns, String extraWhere, String orderBy, int limit)
            throws SQLException;

    /** The run's row counts per distinct value of {@code groupBy} (the group columns, then {@code n}). */
    ResultRows counts(String view, List<String> groupBy, String extraWhere) throws SQLException;
}
