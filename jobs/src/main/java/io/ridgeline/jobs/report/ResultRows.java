package io.ridgeline.jobs.report;

import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Rows of one query over the results, held in memory for a report (a frontier, or a filtered slice of points).
 * Values are as JDBC returns them: {@code String}, {@code Integer}, {@code Long}, {@code Double}, {@code Boolean}, or
 * null.
 */
public record ResultRows(String table, List<String> columns, List<Object[]> rows) {
    public ResultRows {
        columns = List.copyOf(columns);
        rows = List.copyOf(rows);
        for (Object[] r : rows) {
            if (r.length != columns.size()) {
                throw new IllegalStateException("row width " + r.length + " != " + columns.size() + " columns");
            }
        }
    }

    /** Reads a whole result set. */
    public static ResultRows read(String table, ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        List<String> cols = new ArrayList<>();
        for (int i = 1; i <= md.getColumnCount(); i++) {
            cols.add(md.getColumnLabel(i));
        }
        List<Object[]> rows = new ArrayList<>();
        while (rs.next()) {
            Object[] r = new Object[cols.size()];
            for (int i = 0; i < r.length; i++) {
                Object v = rs.getObject(i + 1);
                r[i] = v instanceof Float f ? Double.valueOf(f) : v instanceof java.math.BigDecimal b
                        ? Double.valueOf(b.doubleValue()) : v;
            }
            rows.add(r);
        }
        return new ResultRows(table, cols, rows);
    }

    public int size() {
        return rows.size();
    }

    public boolean has(String column) {
        return columns.contains(column);
    }

    /** Position of a column; a missing one is a bug in the caller's query. */
    public int index(String column) {
        int i = columns.indexOf(column);
        if (i < 0) {
            throw new IllegalStateException("no column " + column + " in " + columns);
        }
        return i;
    }

    public Object value(int row, String column) {
        return rows.get(row)[index(column)];
    }

    /** A numeric cell, NaN when null. */
    public double number(int row, String column) {
        Object v = value(row, column);
        return v instanceof Number n ? n.doubleValue() : Double.NaN;
    }

    /** A cell as text, "" when null. */
    public String text(int row, String column) {
        Object v = value(row, column);
        return v == null ? "" : v.toString();
    }
}
