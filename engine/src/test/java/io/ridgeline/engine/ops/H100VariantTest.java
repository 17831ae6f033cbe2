package io.ridgeline.engine.ops;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The H100 SXM variant of torchtitan's 2024 benchmarks (96 GB HBM2e at 2.4 TB/s, 500 W; catalog/chips.csv
 * h100-sxm-96g): memory-bound work runs at its own bandwidth, tensor-core work at its power-limited clock (the engine's
 * power model: technology.PowerLimitedVariantTest).
 */
class H100VariantTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private static final Chip SXM = HW.chip("h100-sxm");
    private static final Chip VARIANT = HW.chip("h100-sxm-96g");

    @Test
    void carriesTheDocumentedMemoryAndPower() {
        assertEquals(2.4e12, VARIANT.memoryBytesPerSecond(), 1e3);
        assertEquals(500, VARIANT.tdpWatts(), 1e-9);
        assertTrue(VARIANT.memoryBytes() > SXM.memoryBytes(), "96 GB against 80 GB");
        assertEquals(SXM.family(), VARIANT.family());
    }

    @Test
    void memoryBoundKernelsSlowByTheBandwidthRatio() {
        double bytes = 8e9; // far above launch cost
        double sxm = new MemoryBoundOp(SXM).seconds(bytes, 0, 1);
        double variant = new MemoryBoundOp(VARIANT).seconds(bytes, 0, 1);
        assertEquals(3.35 / 2.4, variant / sxm, 0.01);
    }

    @Test
    void largeGemmsSlowByTheClockRatio() {
        double sxm = new GemmModel(SXM).seconds(16384, 16384, 16384, Precision.FP8);
        double variant = new GemmModel(VARIANT).seconds(16384, 16384, 16384, Precision.FP8);
        // The tensor cores run at the lower clock; the L2 term of the soft roofline (chips.csv l2_bw, not clock-scaled)
        // keeps the slowdown a little below the clock ratio.
        double clockRatio = SXM.clockHz() / VARIANT.clockHz();
        assertTrue(variant / sxm > 1.08 && variant / sxm <= clockRatio + 1e-9, "slowdown " + variant / sxm);
    }
}
