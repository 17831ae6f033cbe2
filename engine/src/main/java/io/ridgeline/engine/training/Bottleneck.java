package io.ridgeline.engine.training;

import java.util.Locale;

/** What limits a point the most: the largest share of its time, or capacity when it does not fit. */
public enum Bottleneck {
    COMPUTE, MEMORY_BANDWIDTH, MEMORY_CAPACITY, SCALE_UP_NETWORK, SCALE_OUT_NETWORK, PIPELINE_BUBBLE, OVERHEAD;

    /** Lower-case name, computed once: ids are written per row in sweeps. */
    private final String id = name().toLowerCase(Locale.ROOT);

    public String id() {
        return id;
    }
}
