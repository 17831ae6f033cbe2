package io.ridgeline.engine.ops;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

class GemmModelTest {
    private final GemmModel a100 = new GemmModel(HardwareCatalog.bundled().chip("a100-80g"));

    @Test
    void largeGemmsApproachButNeverExceedPeak() {
        double f = a100.achievedFlopsPerSecond(16384, 16384, 16384, Precision.FP16);
        assertTrue(f < 312e12 && f > 0.75 * 312e12, "achieved " + f);
    }

    @Test
    void smallAndOddShapesLoseToWaveQuantization() {
        double small = a100.achievedFlopsPerSecond(1024, 1024, 1024, Precision.FP16);
        double big = a100.achievedFlopsPerSecond(8192, 8192, 8192, Precision.FP16);
        assertTrue(small < 0.6 * big, small + " vs " + big);
    }

    @Test
    void decodeShapedGemmsAreBandwidthBound() {
        // M = 1 (batch-1 decode): time ~ weight bytes / bandwidth, far below peak.
        double seconds = a100.seconds(1, 4096, 4096, Precision.FP16);
        double bandwidthBound = 4096.0 * 4096 * 2 / a100.chip().effectiveMemoryBytesPerSecond();
        assertTrue(seconds >= bandwidthBound, seconds + " < " + bandwidthBound);
        assertTrue(seconds < 2 * bandwidthBound + 20e-6, "too slow: " + seconds);
    }

    @Test
    void timeIsMonotoneInEveryDimension() {
        double base = a100.seconds(4096, 4096, 4096, Precision.BF16);
        assertTrue(a100.seconds(8192, 4096, 4096, Precision.BF16) > base);
        assertTrue(a100.seconds(4096, 8192, 4096, Precision.BF16) > base);
        assertTrue(a100.seconds(4096, 4096, 8192, Precision.BF16) > base);
    }
}
