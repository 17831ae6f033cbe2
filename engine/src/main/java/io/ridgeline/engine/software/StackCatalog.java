package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.CatalogOverrides;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.spec.Resources;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.spec.SpecNode.Scalar;
import io.ridgeline.engine.spec.SpecReader;
import io.ridgeline.engine.spec.SpecTreeReader;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * The catalogue of software stacks ({@code catalog/stacks.yaml}) and how a framework name finds its profile.
 *
 * <p>Resolution, in order: an exact id or alias; else another version of the same name, the latest one not newer
 * than the request (a later release behaves like the last one catalogued until it is catalogued itself), or the
 * earliest when the request predates them all, or the latest when the request has no version. Unknown names are an
 * input error that lists the known ones. Nothing is ever keyed on a case or a source: only on the stack's name.
 *
 * <p>Numeric values can be replaced at parse time ({@link #withOverrides}, a calibration profile): the path
 * {@code stacks.<id>.<section>.<key>} replaces that entry's value, and entries that inherit it through {@code extends}
 * inherit the replacement, exactly as if the file said so; the value's source then names the profile.
 */
public final class StackCatalog {
    static final String RESOURCE = "catalog/stacks.yaml";
    static final List<String> ENTRY_KEYS = List.of("description", "aliases", "extends", "training", "serving");
    private static final Supplier<String> BUNDLED_TEXT = Resources.once(() -> Resources.text(RESOURCE));
    private static final Supplier<StackCatalog> BUNDLED = Resources.once(() -> parse(RESOURCE, BUNDLED_TEXT.get()));
    private static final Supplier<SpecNode> BUNDLED_TREE = Resources.once(
            () -> SpecTreeReader.parse(RESOURCE, BUNDLED_TEXT.get()));

    private final Map<String, StackProfile> byId;
    private final Map<String, StackProfile> byAlias;
    private final Map<String, Double> numericValues;

    private StackCatalog(Map<String, StackProfile> byId, Map<String, Double> numericValues) {
        this.byId = Collections.unmodifiableMap(byId);
        this.numericValues = Collections.unmodifiableMap(numericValues);
        Map<String, StackProfile> aliases = new LinkedHashMap<>();
        for (StackProfile p : byId.values()) {
            for (String a : p.aliases()) {
                aliases.put(a, p);
            }
        }
        this.byAlias = Collections.unmodifiableMap(aliases);
    }

    /** The catalogue shipped in the engine's resources (loaded once). */
    public static StackCatalog bundled() {
        return BUNDLED.get();
    }

    /** The bundled catalogue's text (read once): fits parse variants of it. */
    public static String bundledText() {
        return BUNDLED_TEXT.get();
    }

    /**
     * The bundled catalogue with numeric values replaced at parse time (class comment). The overridden values are
     * checked like the file's own (ranges of each key).
     *
     * @throws InvalidInputException for a path that names no numeric value of a catalogued entry
     */
    public static StackCatalog withOverrides(CatalogOverrides overrides) {
        if (overrides.isEmpty()) {
            return bundled();
        }
        return build(RESOURCE, BUNDLED_TREE.get(), overrides);
    }

    /** Parses a stacks file; every problem is reported at once with file, line, column and field path. */
    public static StackCatalog parse(String source, String text) {
        return parse(source, text, CatalogOverrides.NONE);
    }

    /** {@link #parse(String, String)} with numeric values replaced (class comment). */
    public static StackCatalog parse(String source, String text, CatalogOverrides overrides) {
        return build(source, SpecTreeReader.parse(source, text), overrides);
    }

    private static StackCatalog build(String source, SpecNode tree, CatalogOverrides overrides) {
        SpecReader r = new SpecReader(source);
        MapNode root = r.map(tree, "(document)");
        if (root == null) {
            r.throwIfErrors();
        }
        r.keys(root, "", List.of("stacks"));
        MapNode stacks = r.map(r.required(root, "", "stacks", "a mapping of stack id to profile"), "stacks");
        r.throwIfErrors();
        Map<String, StackProfile> out = new LinkedHashMap<>();
        Map<String, Double> numeric = new LinkedHashMap<>();
        for (String id : stacks.values().keySet()) {
            StackProfile p = entry(r, stacks, id, new HashSet<>(), overrides, numeric);
            if (p != null) {
                out.put(id, p);
            }
        }
        r.throwIfErrors();
        overrides.requireKnown("stacks.", numeric.keySet());
        return new StackCatalog(out, numeric);
    }

    private static StackProfile entry(SpecReader r, MapNode stacks, String id, Set<String> seen,
                                      CatalogOverrides overrides, Map<String, Double> numeric) {
        String path = "stacks." + id;
        MapNode m = r.map(stacks.get(id), path);
        if (m == null) {
            return null;
        }
        r.keys(m, path, ENTRY_KEYS);
        String description = m.get("description") == null ? "" : r.string(m.get("description"), path + ".description");
        List<String> aliases = m.get("aliases") == null ? List.of()
                : r.list(m.get("aliases"), path + ".aliases", r::string);
        Map<String, String> sources = new TreeMap<>();
        TrainingBehaviour training = null;
        ServingBehaviour serving = null;
        Map<String, SpecNode> trainingValues = section(r, stacks, id, "training", sources, new HashSet<>(seen),
                overrides, numeric);
        Map<String, SpecNode> servingValues = section(r, stacks, id, "serving", sources, new HashSet<>(seen),
                overrides, numeric);
        if (trainingValues != null) {
            keys(r, m, path + ".training", trainingValues, TrainingBehaviour.KEYS);
            training = TrainingBehaviour.read(new StackFields(r, path + ".training", trainingValues, m));
        }
        if (servingValues != null) {
            keys(r, m, path + ".serving", servingValues, ServingBehaviour.KEYS);
            serving = ServingBehaviour.read(new StackFields(r, path + ".serving", servingValues, m));
        }
        if (training == null && serving == null) {
            r.error(m, path, "a training and/or a serving section (own or inherited)", "neither");
            return null;
        }
        int at = id.indexOf('@');
        return new StackProfile(id, at < 0 ? id : id.substring(0, at), at < 0 ? "" : id.substring(at + 1),
                aliases, description == null ? "" : description, training, serving, sources);
    }

    /** Values of one section: the parent's (through extends), then the entry's own on top. Null when neither has it. */
    private static Map<String, SpecNode> section(SpecReader r, MapNode stacks, String id, String name,
                                                 Map<String, String> sources, Set<String> seen,
                                                 CatalogOverrides overrides, Map<String, Double> numeric) {
        String path = "stacks." + id;
        if (!seen.add(id)) {
            r.error(stacks.get(id), path + ".extends", "a chain of extends without a cycle", "a cycle through " + id);
            return null;
        }
        if (!(stacks.get(id) instanceof MapNode m)) {
            return null;
        }
        Map<String, SpecNode> values = null;
        SpecNode parent = m.get("extends");
        if (parent != null) {
            String p = parent instanceof Scalar s ? s.text() : null;
            if (p == null || !stacks.values().containsKey(p)) {
                r.error(parent, path + ".extends", Names.expectedOneOf(p == null ? "" : p, stacks.values().keySet()),
                        parent.describe());
            } else {
                values = section(r, stacks, p, name, sources, seen, overrides, numeric);
            }
        }
        SpecNode own = m.get(name);
        MapNode section = own == null ? null : r.map(own, path + "." + name);
        if (section == null) {
            return override(values, path + "." + name, name, sources, overrides, numeric);
        }
        Map<String, SpecNode> merged = values == null ? new LinkedHashMap<>() : new LinkedHashMap<>(values);
        for (Map.Entry<String, SpecNode> e : section.values().entrySet()) {
            String field = path + "." + name + "." + e.getKey();
            MapNode v = r.map(e.getValue(), field);
            if (v == null) {
                continue;
            }
            r.keys(v, field, List.of("value", "source"));
            SpecNode value = r.required(v, field, "value", "the value");
            SpecNode source = r.required(v, field, "source", "where the value comes from (release notes, docs, code)");
            if (value == null) {
                continue;
            }
            merged.put(e.getKey(), value); // kept even without a source, so only the missing source is reported
            if (source == null) {
                continue;
            }
            String cite = r.string(source, field + ".source");
            if (cite != null && cite.isBlank()) {
                r.error(source, field + ".source", "a citation", "an empty string");
            }
            sources.put(name + "." + e.getKey(), cite == null ? "" : cite);
        }
        return override(merged, path + "." + name, name, sources, overrides, numeric);
    }

    /**
     * Replaces the numeric values of one entry's section (own or inherited) that the overrides name, and records
     * every numeric path of the section as overridable. The replacement keeps the original node's position, so a value
     * the key's reader rejects is reported at the catalogue's line.
     */
    private static Map<String, SpecNode> override(Map<String, SpecNode> values, String sectionPath, String name,
                                                  Map<String, String> sources, CatalogOverrides overrides,
                                                  Map<String, Double> numeric) {
        if (values == null) {
            return null;
        }
        Map<String, SpecNode> out = values;
        for (Map.Entry<String, SpecNode> e : values.entrySet()) {
            if (!(e.getValue() instanceof Scalar s) || (s.kind() != Scalar.Kind.INTEGER
                    && s.kind() != Scalar.Kind.DECIMAL)) {
                continue;
            }
            String path = sectionPath + "." + e.getKey();
            numeric.put(path, overrides.valueOr(path, Double.parseDouble(s.text())));
            if (overrides.has(path)) {
                if (out == values) {
                    out = new LinkedHashMap<>(values);
                }
                double v = overrides.valueOr(path, Double.NaN);
                boolean whole = s.kind() == Scalar.Kind.INTEGER && v == Math.rint(v) && Math.abs(v) < 1e15;
                out.put(e.getKey(), whole ? new Scalar(s.line(), s.column(), Scalar.Kind.INTEGER,
                        Long.toString((long) v)) : new Scalar(s.line(), s.column(), Scalar.Kind.DECIMAL,
                        Double.toString(v)));
                sources.put(name + "." + e.getKey(), "calibrated: " + overrides.source());
            }
        }
        return out;
    }

    private static void keys(SpecReader r, MapNode at, String path, Map<String, SpecNode> values, List<String> known) {
        for (String k : values.keySet()) {
            if (!known.contains(k)) {
                r.error(values.get(k), path + "." + k, "a known key: " + Names.expectedOneOf(k, known),
                        "an unknown key");
            }
        }
    }

    /**
     * Every numeric value as a catalogue path ({@code stacks.<id>.<section>.<key>}, own or inherited) with the value
     * in force, in the file's unit: what {@link #withOverrides} accepts.
     */
    public Map<String, Double> overridableValues() {
        return numericValues;
    }

    /** Profiles by id, in catalogue order. */
    public Map<String, StackProfile> profiles() {
        return byId;
    }

    public boolean has(String id) {
        return byId.containsKey(id) || byAlias.containsKey(id);
    }

    /** The profile for an exact id or alias. */
    public StackProfile profile(String id) {
        StackProfile p = byAlias.get(id);
        return p != null ? p : Names.lookup(byId, id, "software", "software");
    }

    /** How a framework name found its profile. */
    public record Resolution(String requested, StackProfile profile, boolean exact) {
        /** "megatron-bridge@26.02 -> megatron-bridge@25.11 (nearest catalogued version)", or the id when exact. */
        public String describe() {
            return exact ? profile.id() : requested + " -> " + profile.id() + " (nearest catalogued version)";
        }
    }

    /**
     * The profile a framework name stands for (class comment: exact, then another version of the same name).
     *
     * @throws InvalidInputException naming {@code field} when no profile has that name
     */
    public Resolution resolve(String framework, String field) {
        if (byId.containsKey(framework) || byAlias.containsKey(framework)) {
            return new Resolution(framework, profile(framework), true);
        }
        int at = framework.indexOf('@');
        String name = at < 0 ? framework : framework.substring(0, at);
        String version = at < 0 ? "" : framework.substring(at + 1);
        List<StackProfile> same = new ArrayList<>();
        for (StackProfile p : byId.values()) {
            if (p.name().equals(name)) {
                same.add(p);
            }
        }
        if (same.isEmpty()) {
            List<String> names = new ArrayList<>(byId.keySet());
            names.addAll(byAlias.keySet());
            throw new InvalidInputException(InputError.of("software", field, "a catalogued stack: "
                    + Names.expectedOneOf(framework, names), "'" + framework + "'"));
        }
        same.sort((a, b) -> compareVersions(a.version(), b.version()));
        StackProfile pick = same.get(same.size() - 1);
        if (!version.isEmpty()) {
            pick = same.get(0);
            for (StackProfile p : same) {
                if (compareVersions(p.version(), version) <= 0) {
                    pick = p;
                }
            }
        }
        return new Resolution(framework, pick, false);
    }

    /** Dotted versions compared part by part, numerically where both parts are numbers ("24.07" < "25.11"). */
    static int compareVersions(String a, String b) {
        String[] x = a.split("[.\\-_]");
        String[] y = b.split("[.\\-_]");
        for (int i = 0; i < Math.max(x.length, y.length); i++) {
            String p = i < x.length ? x[i] : "0";
            String q = i < y.length ? y[i] : "0";
            int c;
            if (p.matches("\\d+") && q.matches("\\d+")) {
                c = Long.compare(Long.parseLong(p), Long.parseLong(q));
            } else {
                c = p.compareTo(q);
            }
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
