package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.report.ColumnSelector;
import io.ridgeline.jobs.report.ResultRows;
import io.ridgeline.jobs.report.RunSelector;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/** Which results a reporting command reads (--out, --run, --where), and the one query that reads them. */
final class ResultsOptions {
    @Mixin
    OutputDirectory dir = new OutputDirectory();

    @Option(names = "--run", description = "Run id (default: the latest committed run).")
    String run;

    @Option(names = "--where", description = "SQL filter on the rows, e.g. \"model = 'gpt3-175b'\".")
    String where;

    /** The --out directory (local: the reporting commands read it with DuckDB). */
    Path out() {
        return dir.path();
    }

    /** The --run id, or the latest committed run; an unknown id lists the known ones. */
    String runId(Connection c) throws SQLException {
        return RunSelector.resolve(c, run, out().resolve("runs").toString());
    }

    /** One run's rows of a view with the given columns. */
    ResultRows query(Connection c, String table, List<String> cols, String runId, String extraWhere,
                     String orderBy, int limit) throws SQLException {
        StringBuilder sql = new StringBuilder("SELECT ").append(String.join(", ",
                cols.stream().map(ColumnSelector::quote).toList())).append(from(table, extraWhere));
        if (orderBy != null) {
            sql.append(" ORDER BY ").append(orderBy);
        }
        if (limit > 0) {
            sql.append(" LIMIT ").append(limit);
        }
        return read(c, table, sql.toString(), runId);
    }

    /**
     * One run's row counts of a view per distinct value of {@code groupBy} (columns, then {@code n}), in group order;
     * no group columns gives one row with the total.
     */
    ResultRows counts(Connection c, String table, List<String> groupBy, String runId, String extraWhere)
            throws SQLException {
        List<String> quoted = groupBy.stream().map(ColumnSelector::quote).toList();
        StringBuilder sql = new StringBuilder("SELECT ");
        quoted.forEach(q -> sql.append(q).append(", "));
        sql.append("count(*) AS n").append(from(table, extraWhere));
        if (!quoted.isEmpty()) {
            sql.append(" GROUP BY ").append(String.join(", ", quoted)).append(" ORDER BY ")
                    .append(String.join(", ", quoted));
        }
        return read(c, table, sql.toString(), runId);
    }

    /**
     * {@code " FROM table WHERE run_id = ?"} with {@code extraWhere} (SQL or null) and --where: one run's rows of a
     * view, the run id the statement's first parameter.
     */
    String from(String table, String extraWhere) {
        StringBuilder sql = new StringBuilder(" FROM ").append(table).append(" WHERE run_id = ?");
        if (extraWhere != null) {
            sql.append(" AND (").append(extraWhere).append(")");
        }
        if (where != null && !where.isBlank()) {
            sql.append(" AND (").append(where).append(")");
        }
        return sql.toString();
    }

    /**
     * A failed query of a view's rows (made with {@link #from}): with a --where, reported as a bad --where (it is the
     * user's SQL in the statement); without, rethrown as it is (a bug).
     */
    InvalidInputException whereError(String table, SQLException e) throws SQLException {
        if (where == null) {
            throw e;
        }
        return new InvalidInputException(InputError.of("--where", "where", "a SQL condition over the columns of "
                + table, ReadOnlyQuery.firstLine(e)));
    }

    private ResultRows read(Connection c, String table, String sql, String runId) throws SQLException {
        try (PreparedStatement st = c.prepareStatement(sql)) {
            st.setString(1, runId);
            try (ResultSet rs = st.executeQuery()) {
                return ResultRows.read(table, rs);
            }
        } catch (SQLException e) {
            throw whereError(table, e);
        }
    }
}
