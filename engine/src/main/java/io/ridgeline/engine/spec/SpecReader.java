package io.ridgeline.engine.spec;

import io.ridgeline.engine.spec.SpecNode.ListNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.spec.SpecNode.Scalar;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Typed readers over a parsed spec tree ({@link SpecNode}) that collect every problem instead of stopping at the
 * first: each reader records an {@link InputError} (file, line, column, field path, expected, found) and returns null
 * on bad input, so one pass reports all errors. Sweep files and catalogues written in YAML share these readers, so a
 * field reads and fails the same way wherever it appears.
 */
public class SpecReader {
    protected final String source;
    protected final List<InputError> errors = new ArrayList<>();

    public SpecReader(String source) {
        this.source = source;
    }

    /** The problems found so far, in reading order. */
    public List<InputError> errors() {
        return errors;
    }

    /** Throws {@link InvalidInputException} with every problem found so far, if any. */
    public void throwIfErrors() {
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    public void error(SpecNode at, String path, String expected, String found) {
        errors.add(new InputError(source, at == null ? 0 : at.line(), at == null ? 0 : at.column(), path,
                expected, found));
    }


    public MapNode map(SpecNode n, String path) {
        if (n == null) {
            return null;
        }
        if (n instanceof MapNode m) {
            return m;
        }
        error(n, path, "a mapping (key: value lines)", n.describe());
        return null;
    }

    public ListNode listNode(SpecNode n, String path) {
        if (n == null) {
            return null;
        }
        if (n instanceof ListNode l) {
            if (l.items().isEmpty()) {
                error(n, path, "a non-empty list", "an empty list");
                return null;
            }
            return l;
        }
        error(n, path, "a list", n.describe());
        return null;
    }

    public SpecNode required(MapNode m, String path, String key, String expected) {
        if (m == null) {
            return null;
        }
        SpecNode v = m.get(key);
        if (v == null) {
            error(m, path.isEmpty() ? key : path + "." + key, expected, "no '" + key + "' key");
        }
        return v;
    }

    public void keys(MapNode m, String path, List<String> allowed) {
        for (String k : m.values().keySet()) {
            if (!allowed.contains(k)) {
                errors.add(new InputError(source, m.keyLine(k), m.keyColumn(k), path.isEmpty() ? k
                        : path + "." + k, "a known key: " + Names.expectedOneOf(k, allowed), "an unknown key"));
            }
        }
    }

    public <T> List<T> list(SpecNode n, String path, BiFunction<SpecNode, String, T> element) {
        return list(n, path, element, false);
    }

    /** A list of distinct values; a single scalar is accepted as a one-element list. */
    public <T> List<T> list(SpecNode n, String path, BiFunction<SpecNode, String, T> element, boolean allowEmpty) {
        if (n == null) {
            return List.of();
        }
        List<SpecNode> items;
        if (n instanceof Scalar) {
            items = List.of(n);
        } else if (n instanceof ListNode l) {
            if (l.items().isEmpty() && !allowEmpty) {
                error(n, path, "a non-empty list", "an empty list");
            }
            items = l.items();
        } else {
            error(n, path, "a list", n.describe());
            return List.of();
        }
        List<T> out = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            String p = n instanceof Scalar ? path : path + "[" + i + "]";
            T v = element.apply(items.get(i), p);
            if (v == null) {
                continue;
            }
            int first = out.indexOf(v);
            if (first >= 0) {
                error(items.get(i), p, "distinct values", items.get(i).describe() + " again");
                continue;
            }
            out.add(v);
        }
        return out;
    }

    public String string(SpecNode n, String path) {
        if (n instanceof Scalar s && s.kind() == Scalar.Kind.STRING) {
            return s.text();
        }
        error(n, path, "a string", n.describe());
        return null;
    }

    public String catalogueName(SpecNode n, String path, Collection<String> known) {
        String s = n instanceof Scalar sc && sc.kind() != Scalar.Kind.NULL ? sc.text() : null;
        if (s == null) {
            error(n, path, "a name", n.describe());
            return null;
        }
        if (!known.contains(s)) {
            error(n, path, Names.expectedOneOf(s, known), "'" + s + "'");
            return null;
        }
        return s;
    }

    public Integer integer(SpecNode n, String path, long min, long max, String expected) {
        if (n instanceof Scalar s && s.kind() == Scalar.Kind.INTEGER) {
            try {
                long v = Long.parseLong(s.text());
                if (v >= min && v <= max) {
                    return (int) v;
                }
            } catch (NumberFormatException ignored) {
                // too large for a long: reported below
            }
        }
        error(n, path, expected, n.describe());
        return null;
    }

    public Double number(SpecNode n, String path, double min, double max, boolean inclusiveMin) {
        if (n instanceof Scalar s && (s.kind() == Scalar.Kind.INTEGER || s.kind() == Scalar.Kind.DECIMAL)) {
            double v = Double.parseDouble(s.text());
            if ((inclusiveMin ? v >= min : v > min) && v <= max && Double.isFinite(v)) {
                return v;
            }
        }
        error(n, path, min == -Double.MAX_VALUE ? "a number" : "a number in " + (inclusiveMin ? "[" : "(")
                + fmt(min) + ", " + fmt(max) + "]", n.describe());
        return null;
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    public Boolean bool(SpecNode n, String path) {
        if (n instanceof Scalar s && s.kind() == Scalar.Kind.BOOLEAN) {
            return Boolean.parseBoolean(s.text());
        }
        error(n, path, "true or false", n.describe());
        return false;
    }

    public <E extends Enum<E>> E enumValue(SpecNode n, String path, Class<E> type) {
        List<String> ids = Arrays.stream(type.getEnumConstants()).map(e -> e.name().toLowerCase()).toList();
        String s = n instanceof Scalar sc && sc.kind() == Scalar.Kind.STRING ? sc.text() : null;
        if (s == null || !ids.contains(s)) {
            error(n, path, Names.expectedOneOf(s == null ? "" : s, ids), n.describe());
            return null;
        }
        return Enum.valueOf(type, s.toUpperCase());
    }

    protected static int orElse(Integer v, int fallback) {
        return v == null ? fallback : v;
    }
}
