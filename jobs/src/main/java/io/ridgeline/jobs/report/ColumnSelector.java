package io.ridgeline.jobs.report;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.schema.Column;
import io.ridgeline.schema.ResultsSchema;
import io.ridgeline.schema.Table;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Checks user-chosen column names against a table's actual columns and knows each column's unit. */
public final class ColumnSelector {
    private ColumnSelector() {
    }

    /** The columns a view really has (older runs may lack newer optional columns). */
    public static Set<String> available(Connection c, String view) throws SQLException {
        Set<String> cols = new LinkedHashSet<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("DESCRIBE " + view)) {
            while (rs.next()) {
                cols.add(rs.getString(1));
            }
        }
        return cols;
    }

    /**
     * Validates every requested column, reporting all unknown ones at once with the closest known name.
     *
     * @param flag the option the names came from, e.g. {@code --columns}
     */
    public static List<String> check(List<String> requested, Set<String> available, String table, String flag) {
        List<InputError> errors = new ArrayList<>();
        for (int i = 0; i < requested.size(); i++) {
            String name = requested.get(i);
            if (!available.contains(name)) {
                errors.add(InputError.of(flag, "columns[" + i + "]", "a column of " + table + ": "
                        + Names.expectedOneOf(name, available), "'" + name + "'"));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        return List.copyOf(requested);
    }

    /** Validates one column given by its own flag (e.g. {@code --x}), adding an error with a suggestion. */
    public static void checkOne(String name, Set<String> available, String table, String flag,
                                List<InputError> errors) {
        if (!available.contains(name)) {
            errors.add(InputError.of(flag, flag.replaceFirst("^--", ""), "a column of " + table + ": "
                    + Names.expectedOneOf(name, available), "'" + name + "'"));
        }
    }

    /** The schema unit of a column ("" for labels and unknown columns). */
    public static String unit(String table, String column) {
        if (column.equals(ResultsSchema.RUN_ID)) {
            return "";
        }
        Table t = ResultsSchema.table(table);
        for (Column col : t.columns()) {
            if (col.name().equals(column)) {
                return col.unit();
            }
        }
        return "";
    }

    /** A header with its unit, e.g. {@code step_time_s [s]}; label columns stay bare. */
    public static String header(String table, String column) {
        String unit = unit(table, column);
        return unit.isEmpty() ? column : column + " [" + unit + "]";
    }

    /** Double-quotes an identifier for SQL (names were checked, this guards the syntax). */
    public static String quote(String column) {
        return '"' + column.replace("\"", "\"\"") + '"';
    }
}
