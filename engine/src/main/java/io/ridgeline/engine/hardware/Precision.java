package io.ridgeline.engine.hardware;

import java.util.Locale;

/** Numeric formats of tensor-core math and of stored tensors. */
public enum Precision {
    FP32(4), TF32(4), BF16(2), FP16(2), FP8(1), FP4(0.5);

    private final double bytes;

    Precision(double bytes) {
        this.bytes = bytes;
    }

    /** Storage bytes per element. */
    public double bytes() {
        return bytes;
    }

    /** Lower-case name, computed once: ids are written per row in sweeps. */
    private final String id = name().toLowerCase(Locale.ROOT);

    public String id() {
        return id;
    }

    /** Parses "bf16", "FP8"…; null when unknown. */
    public static Precision parse(String s) {
        for (Precision p : values()) {
            if (p.name().equalsIgnoreCase(s.trim())) {
                return p;
            }
        }
        return null;
    }
}
