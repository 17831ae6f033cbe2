package io.ridgeline.engine.technology;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;

/**
 * Builder inputs of real products, each from its own datasheet/whitepaper: node, die area, power, L2, DRAM, links,
 * enabled SMs. Shared by the fit and rebuild tests.
 */
final class Rebuilds {
    private Rebuilds() {
    }

    static Chip preset(String id) {
        return HardwareCatalog.bundled().chip(id);
    }

    /** A100 SXM4 80GB: GA100, TSMC N7, 826 mm2, 108 of 128 SMs, 400 W, 5 x HBM2e, 12 NVLink3 (A100 whitepaper). */
    static ChipBuilder a100() {
        Chip p = preset("a100-80g");
        return ChipBuilder.create().id("a100-rebuilt").architecture("ampere").node("7nm").dieAreaMm2(826)
                .powerBudgetWatts(400).l2Bytes(p.l2Bytes()).dram("hbm2e", 5).scaleUp("nvlink3", 12, 8)
                .enabledUnits(108);
    }

    /**
     * H100 SXM5: GH100, TSMC 4N (5 nm class), 814 mm2, 132 of 144 SMs, 700 W, 5 x HBM3, 18 NVLink4. Its HBM3 runs at
     * 5.23 Gb/s per pin (3.35 TB/s over 5 x 1024 bits), below the JEDEC 6.4 of the catalogue.
     */
    static ChipBuilder h100() {
        Chip p = preset("h100-sxm");
        return ChipBuilder.create().id("h100-rebuilt").architecture("hopper").node("5nm").dieAreaMm2(814)
                .powerBudgetWatts(700).l2Bytes(p.l2Bytes()).dram("hbm3", 5).dramPinGbitPerSecond(5.23)
                .scaleUp("nvlink4", 18, 8).enabledUnits(132);
    }

    /** H100 PCIe: the same GH100 die, 114 SMs, 350 W, 5 x HBM2e at 2.0 TB/s, one PCIe5 x16 (product brief). */
    static ChipBuilder h100Pcie() {
        Chip p = preset("h100-pcie");
        return ChipBuilder.create().id("h100-pcie-rebuilt").architecture("hopper").node("5nm").dieAreaMm2(814)
                .powerBudgetWatts(350).l2Bytes(p.l2Bytes()).dram("hbm2e", 5).dramPinGbitPerSecond(3.125)
                .scaleUp("pcie5", 1, 8).enabledUnits(114);
    }

    /** B200: two reticle-limited dies (~800 mm2 each, assumption), TSMC 4NP, 148 of 160 SMs, 1000 W, 8 x HBM3e. */
    static ChipBuilder b200() {
        Chip p = preset("b200");
        return ChipBuilder.create().id("b200-rebuilt").architecture("blackwell").node("5nm").dies(2, 800)
                .powerBudgetWatts(1000).l2Bytes(p.l2Bytes()).dram("hbm3e", 8).scaleUp("nvlink5", 18, 8)
                .enabledUnits(148);
    }

    /** GB200 (per GPU): the B200 silicon at 1200 W. */
    static ChipBuilder gb200() {
        return b200().id("gb200-rebuilt").powerBudgetWatts(1200);
    }

    static double bf16(Chip c) {
        return c.peakFlopsPerSecond(io.ridgeline.engine.hardware.Precision.BF16);
    }
}
