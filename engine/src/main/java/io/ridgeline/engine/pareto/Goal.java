package io.ridgeline.engine.pareto;

import java.util.Locale;

/** Whether an objective is minimised or maximised. */
public enum Goal {
    MIN, MAX;

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The value as a quantity to minimise: maximised objectives are negated. */
    public double minimised(double value) {
        return this == MAX ? -value : value;
    }
}
