package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.Scalar;
import io.ridgeline.engine.spec.SpecReader;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The values of one section ({@code training} or {@code serving}) of one stack entry, its own merged over what it
 * inherits through {@code extends}. Typed getters record located errors in the catalogue's {@link SpecReader} and
 * return a placeholder, so one load reports every problem. Every value is written {@code key: {value: …, source: …}}.
 */
public final class StackFields {
    private final SpecReader reader;
    private final String path;
    private final Map<String, SpecNode> values;
    private final SpecNode at;

    StackFields(SpecReader reader, String path, Map<String, SpecNode> values, SpecNode at) {
        this.reader = reader;
        this.path = path;
        this.values = values;
        this.at = at;
    }

    private SpecNode node(String key) {
        SpecNode n = values.get(key);
        if (n == null) {
            reader.error(at, path + "." + key, "a value (own or inherited through extends)", "nothing");
        }
        return n;
    }

    public boolean bool(String key) {
        SpecNode n = node(key);
        if (n == null) {
            return false;
        }
        Boolean b = reader.bool(n, path + "." + key);
        return b != null && b;
    }

    public double number(String key, double min, double max) {
        SpecNode n = node(key);
        if (n == null) {
            return min;
        }
        Double d = reader.number(n, path + "." + key, min, max, true);
        return d == null ? min : d;
    }

    public int integer(String key, int min, int max) {
        SpecNode n = node(key);
        if (n == null) {
            return min;
        }
        Integer i = reader.integer(n, path + "." + key, min, max, "an integer in [" + min + ", " + max + "]");
        return i == null ? min : i;
    }

    /** An enum constant by its lower-case id; the first constant (after the error) when absent or unknown. */
    public <E extends Enum<E>> E choice(String key, Class<E> type) {
        E[] all = type.getEnumConstants();
        SpecNode n = node(key);
        if (n == null) {
            return all[0];
        }
        List<String> ids = Arrays.stream(all).map(e -> e.name().toLowerCase(Locale.ROOT)).toList();
        String s = n instanceof Scalar sc && sc.kind() == Scalar.Kind.STRING ? sc.text() : null;
        if (s == null || !ids.contains(s)) {
            reader.error(n, path + "." + key, Names.expectedOneOf(s == null ? "" : s, ids), n.describe());
            return all[0];
        }
        return all[ids.indexOf(s)];
    }

    /** A free-text value (a list of GEMMs, a recipe name the engine reads itself). */
    public String text(String key) {
        SpecNode n = node(key);
        if (n == null) {
            return "";
        }
        String s = reader.string(n, path + "." + key);
        return s == null ? "" : s;
    }

    /** Reports a value of {@code key} that its reader could not take (file, line, field, expected, found). */
    public void error(String key, String expected, String found) {
        reader.error(node(key), path + "." + key, expected, found);
    }

    /** True when the section (own or inherited) sets {@code key}; for optional fields. */
    public boolean has(String key) {
        return values.containsKey(key);
    }
}
