package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.report.CsvExport;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * {@code sql --csv PATH}: a query's rows as CSV (header of column labels, RFC 4180 quoting, full double precision),
 * written by us rather than by a DuckDB COPY, so a problem with the file names {@code --csv} and one with the query
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
     * Writes every row of {@code rs}; returns the row count.
     *
     * @param onQueryError turns an error while fetching rows into the QUERY's error
     */
    static long write(ResultSet rs, Path file, java.util.function.Function<SQLException, RuntimeException> onQueryError) {
        Writer w;
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw flag(file, e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        long rows = 0;
        boolean done = false;
        try (Writer out = w) {
            ResultSetMetaData md = rs.getMetaData();
            int n = md.getColumnCount();
            for (int i = 1; i <= n; i++) {
                out.write((i == 1 ? "" : ",") + CsvExport.quote(md.getColumnLabel(i)));
            }
            out.write('\n');
            while (rs.next()) {
                for (int i = 1; i <= n; i++) {
                    Object v = rs.getObject(i);
                    String text = v == null ? "" : v instanceof Number || v instanceof Boolean
                            ? CsvExport.cell(v) : CsvExport.quote(rs.getString(i));
                    out.write((i == 1 ? "" : ",") + text);
                }
                out.write('\n');
                rows++;
            }
            done = true;
        } catch (SQLException e) {
            throw onQueryError.apply(e);
        } catch (IOException e) {
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
        return rows;
    }

    private static InvalidInputException flag(Path file, String found) {
        return new InvalidInputException(InputError.of("--csv", "csv", "a file path to write the CSV to ("
                + file + ")", found));
    }
}
