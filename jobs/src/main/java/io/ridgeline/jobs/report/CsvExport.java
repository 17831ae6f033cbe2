package io.ridgeline.jobs.report;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** RFC 4180 CSV with units in the header ({@code tokens_per_s [tokens/s]}), UTF-8, one row per result row. */
public final class CsvExport {
    private CsvExport() {
    }

    public static void write(ResultRows rows, Path file) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (int i = 0; i < rows.columns().size(); i++) {
                w.write(i == 0 ? "" : ",");
                w.write(quote(ColumnSelector.header(rows.table(), rows.columns().get(i))));
            }
            w.write("\r\n");
            for (Object[] r : rows.rows()) {
                for (int i = 0; i < r.length; i++) {
                    w.write(i == 0 ? "" : ",");
                    w.write(cell(r[i]));
                }
                w.write("\r\n");
            }
        }
    }

    public static String cell(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Double d) {
            // Full precision, no grouping; spreadsheets read 1.5E9.
            return d.isNaN() || d.isInfinite() ? "" : d.toString();
        }
        return quote(v.toString());
    }

    public static String quote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
