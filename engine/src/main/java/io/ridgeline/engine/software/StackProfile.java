package io.ridgeline.engine.software;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One software stack at one version: the mechanisms it uses for training and/or serving, each value with its source.
 *
 * @param id          {@code name@version} or {@code name}, as the case files' {@code framework} column writes it
 * @param name        the part before '@'
 * @param version     the part after '@' ("" when unversioned)
 * @param aliases     other framework names that mean exactly this profile
 * @param description one line for listings
 * @param training    what the stack does when it trains; null for serving-only stacks
 * @param serving     what the stack does when it serves; null for training-only stacks
 * @param sources     field path ("training.attention") to the citation its value came from
 */
public record StackProfile(String id, String name, String version, List<String> aliases, String description,
                           TrainingBehaviour training, ServingBehaviour serving, Map<String, String> sources) {

    public StackProfile {
        Objects.requireNonNull(id, "id");
        aliases = List.copyOf(aliases);
        sources = Map.copyOf(sources);
        if (training == null && serving == null) {
            throw new IllegalArgumentException("stack " + id + " neither trains nor serves");
        }
    }

    public boolean trains() {
        return training != null;
    }

    public boolean serves() {
        return serving != null;
    }

    /** The citation of one field's value, e.g. {@code source("training.attention")}. */
    public String source(String fieldPath) {
        return sources.get(fieldPath);
    }

    @Override
    public String toString() {
        return id;
    }
}
