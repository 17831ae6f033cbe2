package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.schema.ResultsSchema;
import io.ridgeline.schema.Table;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Embedded DuckDB over a Ridgeline output directory: one view per table (points, frontier, runs) over its committed
 * Hive partitions, with run_id kept as text. Staging directories are outside the table folders, so uncommitted runs
 * are never visible.
 */
final class Duck implements AutoCloseable {
    final Connection connection;
    final List<String> views = new ArrayList<>();

    Duck(Path out) throws SQLException {
        if (!Files.isDirectory(out)) {
            throw new InvalidInputException(InputError.of("--out", "out", "an output directory of ridgeline sweep",
                    "no directory " + out));
        }
        connection = DriverManager.getConnection("jdbc:duckdb:");
        try (Statement st = connection.createStatement()) {
            for (Table t : ResultsSchema.TABLES) {
                Path dir = out.resolve(t.name());
                if (!hasParquet(dir)) {
                    continue;
                }
                String glob = dir.toAbsolutePath().toString().replace("'", "''") + "/*/*.parquet";
                st.execute("CREATE VIEW " + t.name() + " AS SELECT * FROM read_parquet('" + glob + "', "
                        + "hive_partitioning = true, hive_types = {'run_id': VARCHAR}, union_by_name = true)");
                views.add(t.name());
            }
        }
    }

    private static boolean hasParquet(Path dir) {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.walk(dir, 2)) {
            return s.anyMatch(p -> p.getFileName().toString().endsWith(".parquet"));
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Prints a result set as an aligned text table, at most {@code maxRows} rows. */
    static int print(ResultSet rs, PrintStream out, int maxRows) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        List<String[]> rows = new ArrayList<>();
        String[] header = new String[n];
        int[] width = new int[n];
        for (int i = 0; i < n; i++) {
            header[i] = md.getColumnLabel(i + 1);
            width[i] = header[i].length();
        }
        int total = 0;
        while (rs.next()) {
            total++;
            if (rows.size() >= maxRows) {
                continue;
            }
            String[] r = new String[n];
            for (int i = 0; i < n; i++) {
                Object v = rs.getObject(i + 1);
                r[i] = v == null ? "" : v instanceof Double d ? String.format(Locale.ROOT, "%.6g", d)
                        : v instanceof Float f ? String.format(Locale.ROOT, "%.6g", f) : v.toString();
                width[i] = Math.max(width[i], r[i].length());
            }
            rows.add(r);
        }
        line(out, header, width);
        StringBuilder sep = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sep.append(i == 0 ? "" : "  ").append("-".repeat(width[i]));
        }
        out.println(sep);
        for (String[] r : rows) {
            line(out, r, width);
        }
        out.printf("(%d row%s%s)%n", total, total == 1 ? "" : "s", total > rows.size() ? ", " + rows.size()
                + " shown" : "");
        return total;
    }

    private static void line(PrintStream out, String[] cells, int[] width) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            sb.append(i == 0 ? "" : "  ").append(String.format("%-" + width[i] + "s", cells[i]));
        }
        out.println(sb.toString().stripTrailing());
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
