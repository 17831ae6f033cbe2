package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every constant a calibration may fit, declared once in catalog/calibration_parameters.csv (unit, bounds, physical
 * meaning). Adding a parameter is one row there, provided its catalogue value is overridable (numeric columns of
 * families.csv and the model columns of scaleout.csv; every numeric value of stacks.yaml). Bounds are physical limits
 * or generous ranges around published values, never fitted themselves; they lie inside what each catalogue accepts.
 */
public final class ParameterRegistry {
    private static final String RESOURCE = "/catalog/calibration_parameters.csv";
    /** The catalogues a profile can override ({@link Catalogs#NAMES}), keyed by name for the row lookup. */
    private static final Map<String, String> CATALOGUES = new TreeMap<>();

    static {
        Catalogs.NAMES.forEach(n -> CATALOGUES.put(n, n));
    }

    private static final Map<String, Boolean> YES_NO = new TreeMap<>(Map.of("yes", true, "no", false));

    /** The declarations, in the order reports list them. */
    public static final List<ParameterKind> KINDS = read();

    private static List<ParameterKind> read() {
        CsvTable table = CsvTable.readResource(RESOURCE);
        table.requireColumns("catalogue", "field", "unit", "lower", "upper", "fitted_by_default", "step_fraction",
                "meaning");
        List<ParameterKind> kinds = new ArrayList<>();
        for (CsvTable.Row r : table.rows()) {
            kinds.add(new ParameterKind(r.lookup("catalogue", CATALOGUES), r.string("field"), r.string("unit"),
                    r.string("meaning"), r.number("lower"), r.number("upper"), r.lookup("fitted_by_default", YES_NO),
                    r.positive("step_fraction")));
        }
        return List.copyOf(kinds);
    }

    private ParameterRegistry() {
    }

    /** The declared kind of a path, or null. */
    public static ParameterKind kindOf(String path) {
        for (ParameterKind k : KINDS) {
            if (k.entryOf(path) != null) {
                return k;
            }
        }
        return null;
    }

    /**
     * The parameter a path names in these catalogues.
     *
     * @throws InvalidInputException naming {@code source} and {@code field} when the path matches no declaration or
     *                               names an entry the catalogues lack
     */
    public static Parameter parameter(String path, Catalogs catalogs, String source, String field) {
        ParameterKind kind = kindOf(path);
        if (kind == null || !catalogs.values().containsKey(path)) {
            throw new InvalidInputException(InputError.of(source, field, "a calibratable catalogue value: "
                    + Names.expectedOneOf(path, paths(catalogs)), "'" + path + "'"));
        }
        return new Parameter(path, kind.entryOf(path), kind);
    }

    /** Every calibratable path the catalogues have, in declaration order. */
    public static List<String> paths(Catalogs catalogs) {
        List<String> out = new ArrayList<>();
        for (ParameterKind k : KINDS) {
            for (String path : catalogs.values().keySet()) {
                if (k.entryOf(path) != null) {
                    out.add(path);
                }
            }
        }
        return out;
    }
}
