package io.ridgeline.jobs.sql;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The output formats of {@code ridgeline sql}, for engines whose rows arrive as Java values: the aligned text table of
 * the DuckDB path ({@code Duck.print}: doubles as {@code %.6g}, "(n rows, m shown)") and its CSV ({@code COPY ... TO}
 * with HEADER: comma-separated, RFC 4180 quoting, shortest round-trip doubles, timestamps in UTC without zone).
 */
public final class SqlOutput {
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS")
            .withZone(ZoneOffset.UTC);

    private SqlOutput() {
    }

    /** A sink that prints at most {@code maxRows} rows as an aligned table, then the row count. */
    public static final class Text implements SqlEngine.RowSink {
        private final PrintStream out;
        private final int maxRows;
        private String[] header = new String[0];
        private int[] width = new int[0];
        private final List<String[]> rows = new ArrayList<>();
        private int total;

        public Text(PrintStream out, int maxRows) {
            this.out = out;
            this.maxRows = maxRows;
        }

        @Override
        public void columns(List<String> names) {
            header = names.toArray(new String[0]);
            width = new int[header.length];
            for (int i = 0; i < header.length; i++) {
                width[i] = header[i].length();
            }
        }

        @Override
        public void row(Object[] values) {
            total++;
            if (rows.size() >= maxRows) {
                return;
            }
            String[] r = new String[values.length];
            for (int i = 0; i < values.length; i++) {
                Object v = values[i];
                r[i] = v == null ? "" : v instanceof Double d ? String.format(Locale.ROOT, "%.6g", d)
                        : v instanceof Float f ? String.format(Locale.ROOT, "%.6g", f) : plain(v);
                width[i] = Math.max(width[i], r[i].length());
            }
            rows.add(r);
        }

        /** Prints the table; returns the number of rows the query gave. */
        public int finish() {
            line(header);
            StringBuilder sep = new StringBuilder();
            for (int i = 0; i < header.length; i++) {
                sep.append(i == 0 ? "" : "  ").append("-".repeat(width[i]));
            }
            out.println(sep);
            rows.forEach(this::line);
            out.printf("(%d row%s%s)%n", total, total == 1 ? "" : "s", total > rows.size() ? ", " + rows.size()
                    + " shown" : "");
            return total;
        }

        private void line(String[] cells) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < cells.length; i++) {
                sb.append(i == 0 ? "" : "  ").append(String.format("%-" + width[i] + "s", cells[i]));
            }
            out.println(sb.toString().stripTrailing());
        }
    }

    /** A sink that writes every row to a CSV file with a header, as DuckDB's {@code COPY ... (HEADER)} does. */
    public static final class Csv implements SqlEngine.RowSink, AutoCloseable {
        private final Writer w;
        private int rows;

        public Csv(Path file) throws IOException {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
        }

        @Override
        public void columns(List<String> names) {
            List<String> q = names.stream().map(SqlOutput::quote).toList();
            write(String.join(",", q) + "\n");
        }

        @Override
        public void row(Object[] values) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < values.length; i++) {
                sb.append(i == 0 ? "" : ",").append(values[i] == null ? "" : quote(csv(values[i])));
            }
            write(sb.append('\n').toString());
            rows++;
        }

        public int rows() {
            return rows;
        }

        private void write(String s) {
            try {
                w.write(s);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        @Override
        public void close() throws IOException {
            w.close();
        }
    }

    /** A value as DuckDB's CSV writes it: plain decimals (no E notation) in [1e-5, 1e15), else 1e-07 style. */
    static String csv(Object v) {
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                return d.isNaN() ? "nan" : d > 0 ? "inf" : "-inf";
            }
            double a = Math.abs(d);
            if (a == 0 || (a >= 1e-5 && a < 1e15)) {
                String s = new BigDecimal(Double.toString(d)).toPlainString();
                return s.contains(".") ? s : s + ".0";
            }
            String s = Double.toString(d).replace("E", "e");
            int e = s.indexOf('e');
            String mantissa = s.substring(0, e).replaceAll("\\.0$", "");
            int exp = Integer.parseInt(s.substring(e + 1));
            return mantissa + "e" + (exp < 0 ? "-" : "+") + String.format(Locale.ROOT, "%02d", Math.abs(exp));
        }
        return plain(v);
    }

    private static String plain(Object v) {
        if (v instanceof Instant t) {
            return TIMESTAMP.format(t);
        }
        if (v instanceof java.sql.Timestamp t) {
            return TIMESTAMP.format(t.toInstant());
        }
        return v.toString();
    }

    static String quote(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
