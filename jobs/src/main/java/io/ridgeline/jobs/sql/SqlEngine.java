package io.ridgeline.jobs.sql;

import java.util.List;

/**
 * An engine that answers read-only SQL over a results directory's views (points, frontier, runs: every committed
 * run, run_id as text). Statements that would write or change state are refused before anything runs.
 */
public interface SqlEngine extends AutoCloseable {
    /** The views that exist (a table without Parquet files has none). */
    List<String> views();

    /**
     * Runs one query and hands its rows to {@code sink} as they arrive (values as Java types: String, Integer, Long,
     * Double, Boolean, BigDecimal, Instant, or null).
     *
     * @throws io.ridgeline.engine.spec.InvalidInputException when the statement is not a read-only query or fails
     */
    void query(String sql, RowSink sink);

    @Override
    void close();

    /** Receives a result: its column names once, then each row. */
    interface RowSink {
        void columns(List<String> names);

        void row(Object[] values);
    }
}
