package io.ridgeline.jobs.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import org.duckdb.DuckDBResultSetMetaData;
import org.duckdb.StatementReturnType;

import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Admits exactly one read-only query over DuckDB and refuses everything else before anything runs: COPY, EXPORT,
 * ATTACH, INSTALL/LOAD, SET/PRAGMA, CREATE/INSERT..., and several statements in one string.
 *
 * <p>How, without reading the SQL text ourselves: DuckDB's own parser decides. {@code json_serialize_sql(?)} parses
 * the string and serialises only SELECT statements (DESCRIBE, SHOW, SUMMARIZE, FROM-first and VALUES parse as
 * SELECT), returning an error for any other statement type and a list with one entry per statement; it executes
 * nothing. Only then is the text prepared (a single statement: preparing several would run all but the last), and the
 * prepared statement must report a query result ({@link StatementReturnType#QUERY_RESULT}). The connection also stops
 * auto-installing extensions (a query naming {@code https://} or {@code sqlite_scan} would otherwise download one into
 * the user's home) and locks its configuration.
 */
final class ReadOnlyQuery {
    static final String EXPECTED = "one read-only query (SELECT, WITH, FROM, VALUES, DESCRIBE, SHOW or SUMMARIZE; "
            + "sql writes no files and changes no settings)";
    private static final ObjectMapper JSON = new ObjectMapper();

    private ReadOnlyQuery() {
    }

    /**
     * Prepares {@code query} if it is one read-only query.
     *
     * @param views the views it may read, for messages
     * @throws InvalidInputException naming the QUERY argument otherwise (nothing was run)
     */
    static PreparedStatement prepare(Connection c, String query, Object views) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute("SET autoinstall_known_extensions = false");
            st.execute("SET lock_configuration = true");
        }
        JsonNode parsed;
        try (PreparedStatement st = c.prepareStatement("SELECT json_serialize_sql(?::VARCHAR)")) {
            st.setString(1, query);
            try (ResultSet rs = st.executeQuery()) {
                rs.next();
                parsed = JSON.readTree(rs.getString(1));
            }
        } catch (IOException e) {
            throw new IllegalStateException("DuckDB's json_serialize_sql returned unreadable JSON", e);
        }
        if (parsed.path("error").asBoolean(true)) {
            String type = parsed.path("error_type").asText("");
            String message = parsed.path("error_message").asText("");
            if (type.equals("not implemented")) {
                throw refused("a statement that is not a query: '" + shorten(query) + "'");
            }
            throw invalid(views, message.lines().findFirst().orElse(message));
        }
        int statements = parsed.path("statements").size();
        if (statements != 1) {
            throw refused(statements + " statements: '" + shorten(query) + "'");
        }
        PreparedStatement ps;
        try {
            ps = c.prepareStatement(query);
        } catch (SQLException e) {
            throw invalid(views, firstLine(e));
        }
        StatementReturnType type = ps.getMetaData() instanceof DuckDBResultSetMetaData md ? md.getReturnType() : null;
        if (type != StatementReturnType.QUERY_RESULT) {
            ps.close();
            throw refused("a statement that returns " + (type == null ? "no result" : type.name().toLowerCase(java.util.Locale.ROOT)
                    .replace('_', ' ')) + ": '" + shorten(query) + "'");
        }
        return ps;
    }

    private static InvalidInputException refused(String found) {
        return new InvalidInputException(InputError.of("sql", "QUERY", EXPECTED, found));
    }

    static InvalidInputException invalid(Object views, String message) {
        return new InvalidInputException(InputError.of("sql", "QUERY", "a valid query over " + views, message));
    }

    static String firstLine(SQLException e) {
        return e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
    }

    private static String shorten(String query) {
        String q = query.strip().replaceAll("\\s+", " ");
        return q.length() <= 80 ? q : q.substring(0, 77) + "...";
    }
}
