package io.ridgeline.engine.sweep;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** The categorical columns a frontier can be grouped by, each read from one grid axis. */
public enum GroupColumn {
    MODEL, PHASE, SEQ_LEN, GLOBAL_BATCH, CHIP, SCALE_OUT, SCALE_OUT_GBIT_S, SCALE_UP_DOMAIN, GPU_COUNT, TOPOLOGY,
    // inference phase settings (null on training rows)
    INPUT_TOKENS, OUTPUT_TOKENS, CONCURRENCY, WEIGHT_PRECISION, KV_CACHE_PRECISION, CUDA_GRAPHS,
    // the phase's software stack (schema 3)
    SOFTWARE,
    // how requests arrive and the prefill:decode split (issue 10; null on training rows)
    SERVING_MODE, DISAGGREGATION;

    /** The grid axis the column's values come from: the phase settings all share the workload axis. */
    public int axis() {
        return switch (this) {
            case MODEL -> Grid.MODEL;
            case CHIP -> Grid.CHIP;
            case SCALE_OUT -> Grid.SCALE_OUT;
            case SCALE_OUT_GBIT_S -> Grid.SCALE_OUT_RATE;
            case SCALE_UP_DOMAIN -> Grid.SCALE_UP_DOMAIN;
            case GPU_COUNT -> Grid.GPU_COUNT;
            case TOPOLOGY -> Grid.TOPOLOGY;
            default -> Grid.WORKLOAD;
        };
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
