package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.spec.SpecTreeReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Writes fitted values into the catalogue source files (families.csv, scaleout.csv, stacks.yaml under
 * {@code engine/src/main/resources/catalog}), changing only the value's text: comments, sources and every other cell
 * stay byte for byte. A stacks.yaml value must be the entry's own (not inherited through {@code extends}).
 */
public final class CatalogWriter {
    static final String CATALOG_DIR = "engine/src/main/resources/catalog";

    private CatalogWriter() {
    }

    /**
     * Rewrites the files under {@code root} so each path holds its new text.
     *
     * @param texts catalogue path to the value's new text (as {@link RecipeRun#text})
     * @return the paths whose text changed
     */
    public static List<String> write(Path root, Map<String, String> texts) {
        List<String> changed = new ArrayList<>();
        for (Map.Entry<String, String> e : texts.entrySet()) {
            String path = e.getKey();
            ParameterKind kind = ParameterRegistry.kindOf(path);
            if (kind == null) {
                throw new IllegalArgumentException("not a calibratable path: " + path);
            }
            String entry = kind.entryOf(path);
            boolean did = switch (kind.catalogue()) {
                case "families" -> csv(root.resolve(CATALOG_DIR).resolve("families.csv"), "family", entry,
                        kind.field(), e.getValue());
                case "scaleout" -> csv(root.resolve(CATALOG_DIR).resolve("scaleout.csv"), "id", entry, kind.field(),
                        e.getValue());
                default -> yaml(root.resolve(CATALOG_DIR).resolve("stacks.yaml"), entry, kind.field(), e.getValue());
            };
            if (did) {
                changed.add(path);
            }
        }
        return changed;
    }

    private static boolean csv(Path file, String keyColumn, String key, String column, String text) {
        List<String> lines = new ArrayList<>(Arrays.asList(read(file).split("\n", -1)));
        List<String> header = null;
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int[][] spans = spans(line);
            if (header == null) {
                header = new ArrayList<>();
                for (int[] s : spans) {
                    header.add(line.substring(s[0], s[1]));
                }
                continue;
            }
            int k = header.indexOf(keyColumn);
            int c = header.indexOf(column);
            if (k < 0 || c < 0) {
                throw new IllegalStateException(file + ": no column " + keyColumn + " or " + column);
            }
            if (line.substring(spans[k][0], spans[k][1]).equals(key)) {
                String old = line.substring(spans[c][0], spans[c][1]);
                if (old.equals(text)) {
                    return false;
                }
                lines.set(i, line.substring(0, spans[c][0]) + text + line.substring(spans[c][1]));
                writeText(file, String.join("\n", lines));
                return true;
            }
        }
        throw new IllegalStateException(file + ": no row " + keyColumn + "=" + key);
    }

    /** Start and end of every field of an RFC 4180 line (quotes included in quoted fields). */
    static int[][] spans(String line) {
        List<int[]> out = new ArrayList<>();
        int start = 0;
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (ch == '"') {
                quoted = !quoted;
            } else if (ch == ',' && !quoted) {
                out.add(new int[]{start, i});
                start = i + 1;
            }
        }
        int end = line.endsWith("\r") ? line.length() - 1 : line.length();
        out.add(new int[]{start, end});
        return out.toArray(new int[0][]);
    }

    private static boolean yaml(Path file, String entry, String field, String text) {
        String content = read(file);
        int dot = field.indexOf('.');
        SpecNode root = SpecTreeReader.parse(file.toString(), content);
        SpecNode node = get(get(get(get(get(root, "stacks"), entry), field.substring(0, dot)),
                field.substring(dot + 1)), "value");
        if (!(node instanceof SpecNode.Scalar s)) {
            throw new IllegalStateException(file + ": stacks." + entry + "." + field
                    + " is not this entry's own value (inherited through extends?): write it where it is set");
        }
        String[] lines = content.split("\n", -1);
        String line = lines[s.line() - 1];
        int col = s.column() - 1;
        if (!line.startsWith(s.text(), col)) {
            throw new IllegalStateException(file + ":" + s.line() + ": cannot find the value text " + s.text());
        }
        if (s.text().equals(text)) {
            return false;
        }
        lines[s.line() - 1] = line.substring(0, col) + text + line.substring(col + s.text().length());
        writeText(file, String.join("\n", lines));
        return true;
    }

    private static SpecNode get(SpecNode n, String key) {
        return n instanceof MapNode m ? m.get(key) : null;
    }

    private static String read(Path f) {
        try {
            return Files.readString(f, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeText(Path f, String text) {
        try {
            Files.writeString(f, text, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
