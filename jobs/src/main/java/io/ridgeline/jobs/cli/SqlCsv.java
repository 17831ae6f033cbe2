package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.sql.SqlOutput;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * {@code sql --csv PATH}: a query's rows as CSV (header of column labels, RFC 4180 quoting, shortest round-trip
 * doubles: the format of {@link SqlOutput.Csv}, shared with {@code --engine spark}), written by us rather than by a
 * DuckDB COPY, so a problem with the file names {@code --csv} and one with the query
 * names the query. A failure part-way deletes the partial file.
 */
final class SqlCsv {
    private SqlCsv() {
    }

    /** Checks that {@code file} can be a CSV output before the query runs. */
    static void checkTarget(Path file) {
        if (Files.isDirectory(file)) {
            throw flag(file, "a directory");
        }
        if (Files.exists(file) && !Files.isWritable(file)) {
            throw flag(file, "a file that cannot be written");
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null && Files.exists(parent) && !Files.isDirectory(parent)) {
            throw flag(file, "a path under " + parent + ", which is not a directory");
        }
    }

    /**
     * Writes every row of {@code rs} in the CSV format both engines share ({@link SqlOutput.Csv}); returns the row
     * count.
     *
     * @param onQueryError turns an error while fetching rows into the QUERY's error
     */
    static long write(ResultSet rs, Path file, Function<SQLException, RuntimeException> onQueryError) {
        SqlOutput.Csv csv;
        try {
            csv = new SqlOutput.Csv(file);
        } catch (IOException e) {
            throw flag(file, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        boolean done = false;
        try (SqlOutput.Csv out = csv) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            List<String> names = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                names.add(md.getColumnLabel(i));
            }
            out.columns(names);
            Object[] row = new Object[n];
            while (rs.next()) {
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getObject(i + 1);
                }
                out.row(row);
            }
            done = true;
            return out.rows();
        } catch (SQLException e) {
            throw onQueryError.apply(e);
        } catch (IOException | UncheckedIOException e) {
            throw flag(file, e.getClass().getSimpleName() + ": " + e.getMessage());
        } finally {
            if (!done) {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException ignored) {
                    // best effort: the error above says what went wrong
                }
            }
        }
    }

    private static InvalidInputException flag(Path file, String found) {
        return new InvalidInputException(InputError.of("--csv", "csv", "a file path to write the CSV to ("
                + file + ")", found));
    }
}
