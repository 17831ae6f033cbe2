package io.ridgeline.engine.spec;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeSet;

/**
 * Numeric catalogue values that replace the bundled ones while a catalogue is parsed (a calibration profile, a fit's
 * candidate values). Keys are catalogue paths: {@code families.hopper.gemm_peak_fraction},
 * {@code scaleout.ndr.efficiency}, {@code stacks.megatron-lm@2021.training.host_us_per_kernel}; values are in the
 * catalogue's own unit (the file's). Substituting at parse time keeps every record immutable and costs nothing per
 * evaluation. Each loader rejects paths under its prefix that name nothing it has ({@link #requireKnown}).
 *
 * @param source where the values come from, for error messages ("profile.yaml", "fit candidate")
 */
public record CatalogOverrides(String source, Map<String, Double> values) {
    /** No overrides: the bundled catalogue. */
    public static final CatalogOverrides NONE = new CatalogOverrides("bundled catalogue", Map.of());

    public CatalogOverrides {
        values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    /** The override of a path, or the catalogue's own value when there is none. */
    public double valueOr(String path, double catalogueValue) {
        Double v = values.get(path);
        return v == null ? catalogueValue : v;
    }

    public boolean has(String path) {
        return values.containsKey(path);
    }

    /**
     * Fails when a path under {@code prefix} (e.g. "families.") is not among the paths the loader knows; the error
     * lists the known ones and the closest.
     */
    public void requireKnown(String prefix, Collection<String> known) {
        for (String path : values.keySet()) {
            if (path.startsWith(prefix) && !known.contains(path)) {
                throw new InvalidInputException(InputError.of(source, path, "a catalogue path: "
                        + Names.expectedOneOf(path, new TreeSet<>(known)), "'" + path + "'"));
            }
        }
    }
}
