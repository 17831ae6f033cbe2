package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CatalogOverrides;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.spec.SpecReader;
import io.ridgeline.engine.spec.SpecTreeReader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A calibration profile as a run applies it (the file {@code ridgeline calibrate} writes, see
 * {@link ProfileWriter}): catalogue values to replace, and the prediction intervals of the fit. Everything else in
 * the file (bounds, cases, errors, code version) is provenance: checked for shape, not applied. Reading reports every
 * problem with file, line, column and field.
 *
 * @param values    catalogue path to value, in file order
 * @param intervals the profile's intervals, or null when it has none (the bundled ones apply)
 */
public record CalibrationProfile(String source, Map<String, Double> values, IntervalModel intervals,
                                 String codeVersion) {
    static final List<String> TOP_KEYS = List.of("calibration");
    static final List<String> KEYS = List.of("code_version", "command", "cases", "fit", "parameters", "error",
            "intervals");
    static final List<String> PARAMETER_KEYS = List.of("parameter", "value", "before", "lower", "upper", "unit",
            "fitted", "meaning");

    public CalibrationProfile {
        values = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** The overrides to build catalogues with. */
    public CatalogOverrides overrides() {
        return new CatalogOverrides(source, values);
    }

    /** The catalogues with this profile's values. */
    public Catalogs catalogs() {
        return Catalogs.of(overrides());
    }

    /** This profile's intervals, else the bundled ones. */
    public IntervalModel intervalsOrBundled() {
        return intervals == null ? IntervalModel.bundled() : intervals;
    }

    /**
     * Reads a profile.
     *
     * @throws InvalidInputException with every problem: unreadable file, YAML syntax, unknown keys, an unknown
     *                               catalogue path, a value outside its declared bounds
     */
    public static CalibrationProfile read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new InvalidInputException(InputError.of(file.toString(), "(file)", "a readable calibration profile",
                    e.getClass().getSimpleName() + ": " + e.getMessage()));
        }
        return parse(file.toString(), text);
    }

    public static CalibrationProfile parse(String source, String text) {
        SpecReader r = new SpecReader(source);
        MapNode root = r.map(SpecTreeReader.parse(source, text), "(document)");
        r.throwIfErrors();
        r.keys(root, "", TOP_KEYS);
        MapNode c = r.map(r.required(root, "", "calibration", "a calibration profile"), "calibration");
        r.throwIfErrors();
        r.keys(c, "calibration", KEYS);
        String version = c.get("code_version") == null ? "" : r.string(c.get("code_version"),
                "calibration.code_version");
        Map<String, Double> values = new LinkedHashMap<>();
        Catalogs bundled = Catalogs.bundled();
        List<MapNode> ps = r.list(r.required(c, "calibration", "parameters", "a list of fitted parameters"),
                "calibration.parameters", r::map);
        for (int i = 0; i < ps.size(); i++) {
            MapNode p = ps.get(i);
            String path = "calibration.parameters[" + i + "]";
            r.keys(p, path, PARAMETER_KEYS);
            SpecNode nameNode = r.required(p, path, "parameter", "a catalogue path");
            String name = nameNode == null ? null : r.string(nameNode, path + ".parameter");
            SpecNode valueNode = r.required(p, path, "value", "the fitted value");
            if (name == null || valueNode == null) {
                continue;
            }
            ParameterKind kind = ParameterRegistry.kindOf(name);
            if (kind == null || !bundled.values().containsKey(name)) {
                r.error(nameNode, path + ".parameter", "a calibratable catalogue path: " + io.ridgeline.engine.spec
                        .Names.expectedOneOf(name, ParameterRegistry.paths(bundled)), "'" + name + "'");
                continue;
            }
            Double v = r.number(valueNode, path + ".value", kind.lower(), kind.upper(), true);
            if (v != null) {
                if (values.containsKey(name)) {
                    r.error(nameNode, path + ".parameter", "each parameter once", "'" + name + "' again");
                }
                values.put(name, v);
            }
        }
        IntervalModel intervals = c.get("intervals") == null ? null : intervals(r, c.get("intervals"));
        r.throwIfErrors();
        return new CalibrationProfile(source, values, intervals, version == null ? "" : version);
    }

    private static IntervalModel intervals(SpecReader r, SpecNode n) {
        MapNode m = r.map(n, "calibration.intervals");
        if (m == null) {
            return null;
        }
        r.keys(m, "calibration.intervals", List.of("coverage", "groups"));
        Double coverage = r.number(r.required(m, "calibration.intervals", "coverage", "the stated coverage"),
                "calibration.intervals.coverage", 0, 1, false);
        List<IntervalModel.Group> groups = new ArrayList<>();
        List<MapNode> gs = m.get("groups") == null ? List.of()
                : r.list(m.get("groups"), "calibration.intervals.groups", r::map, true);
        for (int i = 0; i < gs.size(); i++) {
            MapNode g = gs.get(i);
            String path = "calibration.intervals.groups[" + i + "]";
            r.keys(g, path, List.of("output", "stack", "family", "residuals", "sources", "log_ratio_center",
                    "between_source_sd", "within_source_sd", "log_ratio_low", "log_ratio_high"));
            String out = r.string(r.required(g, path, "output", "an interval output"), path + ".output");
            IntervalOutput o = out == null ? null : IntervalOutput.parse(out);
            if (out != null && o == null) {
                r.error(g.get("output"), path + ".output", "one of " + java.util.Arrays.stream(IntervalOutput.values())
                        .map(IntervalOutput::id).toList(), "'" + out + "'");
            }
            String stack = r.string(r.required(g, path, "stack", "a stack (framework family) or *"), path + ".stack");
            String family = r.string(r.required(g, path, "family", "a chip family or *"), path + ".family");
            Integer count = r.integer(r.required(g, path, "residuals", "the residual count"), path + ".residuals", 1,
                    Integer.MAX_VALUE, "a positive integer");
            Integer s = r.integer(r.required(g, path, "sources", "the source count"), path + ".sources", 1,
                    Integer.MAX_VALUE, "a positive integer");
            Double lo = r.number(r.required(g, path, "log_ratio_low", "a number"), path + ".log_ratio_low",
                    -Double.MAX_VALUE, Double.MAX_VALUE, true);
            Double hi = r.number(r.required(g, path, "log_ratio_high", "a number"), path + ".log_ratio_high",
                    -Double.MAX_VALUE, Double.MAX_VALUE, true);
            // The center and spreads document how the bounds came about; only the bounds are applied.
            Double center = optional(r, g, path, "log_ratio_center", -Double.MAX_VALUE);
            Double between = optional(r, g, path, "between_source_sd", 0);
            Double within = optional(r, g, path, "within_source_sd", 0);
            if (o != null && stack != null && family != null && count != null && s != null && lo != null && hi != null
                    && center != null && between != null && within != null) {
                if (lo > hi) {
                    r.error(g.get("log_ratio_low"), path + ".log_ratio_low", "at most log_ratio_high", lo.toString());
                }
                groups.add(new IntervalModel.Group(o, stack, family, count, s, center, between, within, lo, hi));
            }
        }
        return coverage == null ? null : new IntervalModel(coverage, groups);
    }

    /** An optional number of a group (NaN when absent; null after an error). */
    private static Double optional(SpecReader r, MapNode g, String path, String key, double lower) {
        return g.get(key) == null ? Double.valueOf(Double.NaN)
                : r.number(g.get(key), path + "." + key, lower, Double.MAX_VALUE, true);
    }
}
