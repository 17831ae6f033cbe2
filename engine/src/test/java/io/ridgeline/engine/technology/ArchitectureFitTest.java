package io.ridgeline.engine.technology;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Keeps the fitted constants of the catalogues honest: recomputes each from its stated source with the builder's own
 * equations and fails when the CSV value drifts by more than 1%. Prints the fitted values for updating the CSVs.
 */
class ArchitectureFitTest {

    @Test
    void unitAreaIsTheFlagshipComputeAreaOverItsPhysicalUnits() {
        check("ampere unit mm2", Rebuilds.a100().build().computeAreaMm2() / 128,
                TechnologyCatalog.bundled().architecture("ampere").unitMm2AtReferenceNode());
        check("hopper unit mm2", Rebuilds.h100().build().computeAreaMm2() / 144,
                TechnologyCatalog.bundled().architecture("hopper").unitMm2AtReferenceNode());
        check("blackwell unit mm2", Rebuilds.b200().build().computeAreaMm2() / 160,
                TechnologyCatalog.bundled().architecture("blackwell").unitMm2AtReferenceNode());
    }

    @Test
    void sevenNanometreEnergyReproducesTheA100Anchor() {
        // The anchor: the factor on the whole node series that makes A100 at 400 W deliver 312 TFLOP/s.
        double s = energyFactorFor(Rebuilds.a100(), 312e12);
        System.out.printf("fit 7nm bf16_pj_per_flop = %.4f (x%.4f of the CSV)%n",
                TechnologyCatalog.bundled().node("7nm").bf16JoulesPerFlop() * 1e12 * s, s);
        assertEquals(1.0, s, 0.01, "7nm bf16_pj_per_flop drifted from the A100 anchor");
    }

    @Test
    void hopperEnergyScaleReproducesTheSisterProductH100Pcie() {
        double s = energyFactorFor(Rebuilds.h100Pcie(), 756e12);
        System.out.printf("fit hopper energy_scale = %.4f (x%.4f of the CSV)%n",
                TechnologyCatalog.bundled().architecture("hopper").energyScale() * s, s);
        assertEquals(1.0, s, 0.01, "hopper energy_scale drifted from its fit on H100 PCIe");
    }

    @Test
    void blackwellEnergyScaleReproducesTheSisterProductGb200() {
        double s = energyFactorFor(Rebuilds.gb200(), 2500e12);
        System.out.printf("fit blackwell energy_scale = %.4f (x%.4f of the CSV)%n",
                TechnologyCatalog.bundled().architecture("blackwell").energyScale() * s, s);
        assertEquals(1.0, s, 0.01, "blackwell energy_scale drifted from its fit on GB200");
    }

    /** The factor on energy per FLOP that makes the built chip reach {@code targetFlopsPerSecond} (bisection). */
    private static double energyFactorFor(ChipBuilder b, double targetFlopsPerSecond) {
        DerivedChip d = b.build();
        LogicNode n = TechnologyCatalog.bundled().node(nodeOf(d));
        Architecture arch = TechnologyCatalog.bundled().architecture(archOf(d));
        // What the builder leaves for compute: budget - static - DRAM - links (budget = static / static fraction).
        double budget = d.staticWatts() / ChipBuilder.DEFAULT_STATIC_POWER_FRACTION - d.staticWatts()
                - d.dramWatts() - d.linkWatts();
        double flopsPerCycle = d.enabledUnits() * arch.bf16FlopsPerCyclePerUnit();
        double lo = 0.05;
        double hi = 20;
        for (int i = 0; i < 200; i++) {
            double mid = Math.sqrt(lo * hi);
            double hz = ChipBuilder.operatingPoint(n, arch.energyScale() * mid, flopsPerCycle, budget).hz();
            if (flopsPerCycle * hz > targetFlopsPerSecond) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return Math.sqrt(lo * hi);
    }

    private static String nodeOf(DerivedChip d) {
        return d.chip().name().split(" ")[1];
    }

    private static String archOf(DerivedChip d) {
        return d.chip().family().name();
    }

    private static void check(String what, double fitted, double csv) {
        System.out.printf("fit %s = %.4f (CSV %.4f)%n", what, fitted, csv);
        assertEquals(fitted, csv, 0.01 * fitted, what + " drifted");
    }
}
