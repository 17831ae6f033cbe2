package io.ridgeline.engine.calibration;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.CatalogOverrides;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The catalogues a calibration touches, built once with a set of overrides (parse-time substitution): the hardware
 * catalogue (families, scale-out networks) and the software stacks. Every record stays immutable, so an evaluator
 * built on these costs exactly what it costs on the bundled ones.
 */
public final class Catalogs {
    /** The catalogues whose values a profile can override: a path starts with one of these and a dot. */
    static final List<String> NAMES = List.of("families", "scaleout", "stacks");
    private static volatile Catalogs bundled;

    private final HardwareCatalog hardware;
    private final StackCatalog stacks;
    private final CatalogOverrides overrides;
    private final Map<String, Double> values;

    private Catalogs(HardwareCatalog hardware, StackCatalog stacks, CatalogOverrides overrides) {
        this.hardware = hardware;
        this.stacks = stacks;
        this.overrides = overrides;
        Map<String, Double> v = new LinkedHashMap<>(hardware.overridableValues());
        v.putAll(stacks.overridableValues());
        this.values = Collections.unmodifiableMap(v);
    }

    /** The bundled catalogues. */
    public static Catalogs bundled() {
        Catalogs c = bundled;
        if (c == null) {
            c = new Catalogs(HardwareCatalog.bundled(), StackCatalog.bundled(), CatalogOverrides.NONE);
            bundled = c;
        }
        return c;
    }

    /**
     * The bundled catalogues with these values replaced.
     *
     * @throws io.ridgeline.engine.spec.InvalidInputException when a path names nothing in any catalogue
     */
    public static Catalogs of(CatalogOverrides overrides) {
        if (overrides.isEmpty()) {
            return bundled();
        }
        for (String path : overrides.values().keySet()) {
            if (!NAMES.contains(path.substring(0, Math.max(0, path.indexOf('.'))))) {
                overrides.requireKnown(path, bundled().values().keySet());
            }
        }
        return new Catalogs(HardwareCatalog.withOverrides(overrides), StackCatalog.withOverrides(overrides),
                overrides);
    }

    public HardwareCatalog hardware() {
        return hardware;
    }

    public StackCatalog stacks() {
        return stacks;
    }

    /** The overrides these catalogues were built with (empty for the bundled ones). */
    public CatalogOverrides overrides() {
        return overrides;
    }

    /** Every overridable path with the value in force (the catalogue files' units). */
    public Map<String, Double> values() {
        return values;
    }

    /** The value in force at a path. */
    public double value(String path) {
        Double v = values.get(path);
        if (v == null) {
            throw new IllegalStateException("not a catalogue path: " + path);
        }
        return v;
    }
}
