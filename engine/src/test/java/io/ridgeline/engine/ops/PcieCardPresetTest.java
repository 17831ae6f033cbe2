package io.ridgeline.engine.ops;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PCIe cards of the serving documents (catalog/chips.csv l40s, rtx-pro-6000-bse, a100-pcie-80g): datasheet peaks
 * that agree with their SM count and clock, the memory the driver reports, PCIe scale-up without NVLink, and the
 * kernel class their families borrow (Ada and Blackwell RTX run Ampere-class mma.sync kernels).
 */
class PcieCardPresetTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private static final double GIB = 1024.0 * 1024 * 1024;

    /** Dense 16-bit peak = SMs x clock x FLOP per SM and clock (512 FMA on Ada and Blackwell RTX, 1,024 on GA100). */
    private static double smPeak(Chip c, int flopPerClock) {
        return c.smCount() * c.clockHz() * flopPerClock;
    }

    @Test
    void peaksFollowFromSmsAndClock() {
        for (String id : new String[]{"l40s", "rtx-pro-6000-bse", "a100-pcie-80g"}) {
            Chip c = HW.chip(id);
            int flopPerClock = id.startsWith("a100") ? 2048 : 1024;
            assertEquals(1, c.peakFlopsPerSecond(Precision.BF16) / smPeak(c, flopPerClock), 0.025, id);
            assertFalse(c.nvlinkScaleUp(), id);
        }
        Chip l40s = HW.chip("l40s");
        Chip rtx = HW.chip("rtx-pro-6000-bse");
        // The datasheet rounds: FP8 733 dense beside 16-bit 362.05 dense (733 sparse).
        assertEquals(2, l40s.peakFlopsPerSecond(Precision.FP8) / l40s.peakFlopsPerSecond(Precision.BF16), 0.03);
        assertFalse(l40s.supports(Precision.FP4), "Ada has no FP4 tensor cores");
        assertEquals(4, rtx.peakFlopsPerSecond(Precision.FP4) / rtx.peakFlopsPerSecond(Precision.BF16), 1e-9);
        // A100 PCIe computes in 16 bits only: FP8 falls back to the 16-bit peak.
        Chip a100 = HW.chip("a100-pcie-80g");
        assertEquals(a100.peakFlopsPerSecond(Precision.BF16), a100.peakFlopsPerSecond(Precision.FP8), 0);
    }

    @Test
    void memoryIsWhatTheDriverReports() {
        assertEquals(46068.0 / 1024, HW.chip("l40s").memoryBytes() / GIB, 0.01);
        assertEquals(97887.0 / 1024, HW.chip("rtx-pro-6000-bse").memoryBytes() / GIB, 0.01);
        assertEquals(81920.0 / 1024, HW.chip("a100-pcie-80g").memoryBytes() / GIB, 0.01);
        assertEquals(0.864e12, HW.chip("l40s").memoryBytesPerSecond(), 1e6);
        // 512-bit GDDR7 at 28 Gb/s.
        assertEquals(512 / 8.0 * 28e9, HW.chip("rtx-pro-6000-bse").memoryBytesPerSecond(), 1e6);
    }

    @Test
    void a100PcieSustainsLessThanTheSxmPartByTheMeasuredRatio() {
        Chip sxm = HW.chip("a100-80g");
        Chip pcie = HW.chip("a100-pcie-80g");
        assertEquals(sxm.family().overlapExponent(), pcie.family().overlapExponent(), 0);
        // ml-engineering MAMF: A100 PCIe 252.9 against SXM 271.2 TFLOP/s at the same 312 TFLOP/s peak.
        assertEquals(252.9 / 271.2, pcie.family().gemmPeakFraction() / sxm.family().gemmPeakFraction(), 0.002);
        int big = 16384;
        double ratio = new GemmModel(pcie).seconds(big, big, big, Precision.BF16)
                / new GemmModel(sxm).seconds(big, big, big, Precision.BF16);
        assertTrue(ratio > 1.05 && ratio < 1.08, "slowdown " + ratio);
        // Memory-bound work at the PCIe part's own bandwidth.
        double bytes = 8e9;
        assertEquals(2.039 / 1.935, new MemoryBoundOp(pcie).seconds(bytes, 0, 1)
                / new MemoryBoundOp(sxm).seconds(bytes, 0, 1), 0.01);
    }

    @Test
    void pcieFamiliesBorrowTheAmpereKernelClass() {
        Chip l40s = HW.chip("l40s");
        Chip rtx = HW.chip("rtx-pro-6000-bse");
        Chip a100 = HW.chip("a100-80g");
        for (Chip c : new Chip[]{l40s, rtx}) {
            assertEquals(a100.family().gemmPeakFraction(), c.family().gemmPeakFraction(), 0);
            assertEquals(a100.family().flashFraction(), c.family().flashFraction(), 0);
            assertEquals(a100.family().dramFraction(), c.family().dramFraction(), 0);
            assertSame(HW.curve(a100), HW.curve(c), "no PCIe all-reduce sweep: Ampere's curve shape");
        }
        assertEquals(HW.chip("b200").family().gemmPeakFraction(Precision.FP4), rtx.family().gemmPeakFraction(
                Precision.FP4), 0);
    }
}
