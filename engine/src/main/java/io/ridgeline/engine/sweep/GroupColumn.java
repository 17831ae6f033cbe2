package io.ridgeline.engine.sweep;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The categorical columns a frontier can be grouped by; each is one grid axis (the phase settings share the workload axis). */
public enum GroupColumn {
    MODEL(Grid.MODEL), PHASE(Grid.WORKLOAD), SEQ_LEN(Grid.WORKLOAD), GLOBAL_BATCH(Grid.WORKLOAD), CHIP(Grid.CHIP),
    SCALE_OUT(Grid.SCALE_OUT), SCALE_OUT_GBIT_S(Grid.SCALE_OUT_RATE), SCALE_UP_DOMAIN(Grid.SCALE_UP_DOMAIN),
    GPU_COUNT(Grid.GPU_COUNT), TOPOLOGY(Grid.TOPOLOGY),
    // inference phase settings (null on training rows)
    INPUT_TOKENS(Grid.WORKLOAD), OUTPUT_TOKENS(Grid.WORKLOAD), CONCURRENCY(Grid.WORKLOAD),
    WEIGHT_PRECISION(Grid.WORKLOAD), KV_CACHE_PRECISION(Grid.WORKLOAD), CUDA_GRAPHS(Grid.WORKLOAD),
    // the phase's software stack (schema 3)
    SOFTWARE(Grid.WORKLOAD);

    private final int axis;

    GroupColumn(int axis) {
        this.axis = axis;
    }

    public int axis() {
        return axis;
    }

    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static List<String> columns() {
        return Arrays.stream(values()).map(GroupColumn::column).toList();
    }

    public static GroupColumn byColumn(String column) {
        for (GroupColumn g : values()) {
            if (g.column().equals(column)) {
                return g;
            }
        }
        return null;
    }
}
