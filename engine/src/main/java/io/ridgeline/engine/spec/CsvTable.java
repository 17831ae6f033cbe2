package io.ridgeline.engine.spec;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A small RFC 4180 CSV reader for catalogues and case files, with typed accessors whose errors name the file, the line
 * and the column. Lines starting with '#' are comments. Read once on the driver; never in a hot loop.
 */
public final class CsvTable {
    private final String source;
    private final List<String> header;
    private final Map<String, Integer> index = new HashMap<>();
    private final List<Row> rows = new ArrayList<>();

    private CsvTable(String source, List<String> header, List<Integer> lines, List<List<String>> records) {
        this.source = source;
        this.header = List.copyOf(header);
        for (int i = 0; i < header.size(); i++) {
            index.put(header.get(i), i);
        }
        for (int i = 0; i < records.size(); i++) {
            rows.add(new Row(lines.get(i), records.get(i)));
        }
    }

    public static CsvTable read(Path file) {
        String text = Utf8Text.read(file, "CSV file");
        try (Reader r = new StringReader(text)) {
            return parse(file.toString(), r);
        } catch (IOException e) {
            throw new InvalidInputException(InputError.of(file.toString(), "(file)", "a readable CSV file",
                    e.getClass().getSimpleName() + ": " + e.getMessage()));
        }
    }

    public static CsvTable readResource(String resource) {
        InputStream in = CsvTable.class.getResourceAsStream(resource);
        if (in == null) {
            throw new IllegalStateException("missing bundled resource " + resource);
        }
        try (Reader r = new InputStreamReader(in, StandardCharsets.UTF_8)) {
            return parse("classpath:" + resource, r);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read bundled resource " + resource, e);
        }
    }

    /**
     * A bundled catalogue keyed by its {@code id} column, in file order and unmodifiable: the columns required, then
     * every row through {@code read} (which may refer to catalogues read before it).
     */
    public static <T> Map<String, T> byId(String resource, Function<Row, T> read, String... columns) {
        CsvTable t = readResource(resource);
        t.requireColumns(columns);
        Map<String, T> byId = new LinkedHashMap<>();
        for (Row r : t.rows()) {
            byId.put(r.string("id"), read.apply(r));
        }
        return Collections.unmodifiableMap(byId);
    }

    static CsvTable parse(String source, Reader reader) throws IOException {
        BufferedReader in = new BufferedReader(reader);
        List<String> header = null;
        List<Integer> lines = new ArrayList<>();
        List<List<String>> records = new ArrayList<>();
        int lineNo = 0;
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            int startLine = lineNo;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            // A quoted field may span lines: keep reading until quotes balance.
            StringBuilder record = new StringBuilder(line);
            while (countQuotes(record) % 2 != 0) {
                String next = in.readLine();
                if (next == null) {
                    throw new InvalidInputException(new InputError(source, startLine, 0, "(record)",
                            "a closing double quote", "end of file"));
                }
                lineNo++;
                record.append('\n').append(next);
            }
            List<String> fields = split(record.toString());
            if (header == null) {
                header = fields;
                continue;
            }
            if (fields.size() != header.size()) {
                throw new InvalidInputException(new InputError(source, startLine, 0, "(record)",
                        header.size() + " fields as in the header", fields.size() + " fields"));
            }
            lines.add(startLine);
            records.add(fields);
        }
        if (header == null) {
            throw new InvalidInputException(InputError.of(source, "(header)", "a header line", "an empty file"));
        }
        return new CsvTable(source, header, lines, records);
    }

    private static int countQuotes(CharSequence s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) == '"') {
                n++;
            }
        }
        return n;
    }

    private static List<String> split(String record) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < record.length(); i++) {
            char c = record.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < record.length() && record.charAt(i + 1) == '"') {
                        cur.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else if (c != '\r') {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }

    public String source() {
        return source;
    }

    public List<String> header() {
        return header;
    }

    public List<Row> rows() {
        return rows;
    }

    /** Fails with a clear error when a required column is missing. */
    public void requireColumns(String... names) {
        List<InputError> errors = new ArrayList<>();
        for (String n : names) {
            if (!index.containsKey(n)) {
                errors.add(new InputError(source, 1, 0, n, "a column named '" + n + "'", "header " + header));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    public boolean hasColumn(String name) {
        return index.containsKey(name);
    }

    /** One data row with typed accessors; an empty cell means "not stated". */
    public final class Row {
        private final int line;
        private final List<String> fields;

        Row(int line, List<String> fields) {
            this.line = line;
            this.fields = fields;
        }

        public int line() {
            return line;
        }

        public String source() {
            return source;
        }

        public String raw(String column) {
            Integer i = index.get(column);
            if (i == null) {
                throw new IllegalStateException("column not checked with requireColumns: " + column);
            }
            return fields.get(i).trim();
        }

        public boolean isEmpty(String column) {
            return !index.containsKey(column) || raw(column).isEmpty();
        }

        public String string(String column) {
            String v = raw(column);
            if (v.isEmpty()) {
                throw error(column, "a value", "an empty cell");
            }
            return v;
        }

        public String stringOr(String column, String fallback) {
            return isEmpty(column) ? fallback : raw(column);
        }

        public double number(String column) {
            String v = string(column);
            try {
                return Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw error(column, "a number", "'" + v + "'");
            }
        }

        public double numberOr(String column, double fallback) {
            return isEmpty(column) ? fallback : number(column);
        }

        public double positive(String column) {
            double v = number(column);
            if (!(v > 0) || Double.isInfinite(v)) {
                throw error(column, "a positive number", raw(column));
            }
            return v;
        }

        public long integer(String column) {
            String v = string(column);
            try {
                return Long.parseLong(v);
            } catch (NumberFormatException e) {
                try {
                    double d = Double.parseDouble(v);
                    if (d == Math.rint(d) && Math.abs(d) < 9e15) {
                        return (long) d;
                    }
                } catch (NumberFormatException ignored) {
                    // fall through to the error below
                }
                throw error(column, "an integer", "'" + v + "'");
            }
        }

        public long integerOr(String column, long fallback) {
            return isEmpty(column) ? fallback : integer(column);
        }

        /** The entry of {@code known} this cell names, or an error listing the known names and the closest. */
        public <T> T lookup(String column, Map<String, T> known) {
            String name = string(column);
            T v = known.get(name);
            if (v == null) {
                throw error(column, Names.expectedOneOf(name, known.keySet()), "'" + name + "'");
            }
            return v;
        }

        public InvalidInputException error(String column, String expected, String found) {
            int col = index.getOrDefault(column, -1) + 1;
            return new InvalidInputException(new InputError(source, line, col, column, expected, found));
        }
    }
}
