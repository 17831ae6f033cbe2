package io.ridgeline.engine.hardware;

import io.ridgeline.engine.spec.LowerCaseId;
import io.ridgeline.engine.spec.Names;

/** Numeric formats of tensor-core math and of stored tensors. */
public enum Precision implements LowerCaseId {
    FP32(4), TF32(4), BF16(2), FP16(2), FP8(1), FP4(0.5);

    private final double bytes;

    Precision(double bytes) {
        this.bytes = bytes;
    }

    /** Storage bytes per element. */
    public double bytes() {
        return bytes;
    }

    /** Parses "bf16", "FP8"…; null when unknown. */
    public static Precision parse(String s) {
        return Names.parse(Precision.class, s);
    }
}
