package io.ridgeline.engine.energy;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.technology.TechnologyCatalog;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ChipEnergyTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private static final TechnologyCatalog TECH = TechnologyCatalog.bundled();
    /** Documented tolerance: the GEMM model's achieved rate differs from peak x gemm_peak_fraction by tiles/launch. */
    static final double SATURATED_GEMM_TOLERANCE = 0.10;

    private static ChipEnergy energy(Chip chip) {
        return ChipEnergy.of(SystemSpec.of(chip, 8, HW.defaultNetwork(chip)), TECH, new GemmModel(chip));
    }

    @Test
    void perFlopEnergyIsTdpLessStaticAndAnchorDramOverTheSustainedRate() {
        Chip h100 = HW.chip("h100-sxm");
        ChipEnergy e = energy(h100);
        double rate = 2 * Math.pow(8192, 3) / new GemmModel(h100).seconds(8192, 8192, 8192, Precision.BF16);
        double dramWatts = 1.5 * 2 * rate / 8192 * 3.0e-12 * 8; // HBM3 3.0 pJ/bit
        double expected = (700 - 0.25 * 700 - dramWatts) / rate;
        assertEquals(expected, e.joulesPerFlop(Precision.BF16), 1e-6 * expected);
        assertEquals(3.0e-12 * 8, e.dramJoulesPerByte(), 1e-20);
        assertEquals(5.0e-12 * 8, e.scaleUpJoulesPerByte(), 1e-20);
        assertEquals(0.25 * 700, e.staticWatts(), 1e-9);
        // Per-FLOP energy falls as the sustained tensor rate rises at the same TDP: FP8 at its own sustained rate.
        double fp8Rate = 2 * Math.pow(8192, 3) / new GemmModel(h100).seconds(8192, 8192, 8192, Precision.FP8);
        assertEquals(rate / fp8Rate, e.joulesPerFlop(Precision.FP8) / e.joulesPerFlop(Precision.BF16), 0.01);
    }

    @Test
    void aSaturatedGemmDrawsTdpOnEveryPreset() {
        double n = ChipEnergy.ANCHOR_GEMM_SIZE;
        for (Map.Entry<String, Chip> c : HW.chips().entrySet()) {
            Chip chip = c.getValue();
            ChipEnergy e = energy(chip);
            double seconds = new GemmModel(chip).seconds(n, n, n, Precision.BF16);
            double dynamic = e.dynamicJoules(2 * n * n * n, Precision.BF16, 3 * n * n * 2, 0, 0);
            double watts = e.joules(dynamic, seconds, 1) / seconds;
            System.out.printf("| %s | %s | %.3f | %.3f | %.0f | %.1f | %.1f |%n", c.getKey(), HW.logicNode(c.getKey()),
                    e.joulesPerFlop(Precision.BF16) * 1e12, e.joulesPerFlop(Precision.FP8) * 1e12, e.staticWatts(),
                    e.dramJoulesPerByte() / 8 * 1e12, e.scaleUpJoulesPerByte() / 8 * 1e12);
            assertEquals(chip.tdpWatts(), watts, SATURATED_GEMM_TOLERANCE * chip.tdpWatts(), c.getKey());
        }
    }

    @Test
    void idleDrawsStaticPowerAndNothingDrawsAboveTdp() {
        ChipEnergy e = energy(HW.chip("a100-80g"));
        assertEquals(0.25 * 400 * 2.0 * 8, e.joules(0, 2.0, 8), 1e-9);
        assertEquals(400 * 2.0 * 8, e.joules(1e12, 2.0, 8), 1e-9);
        assertTrue(e.joules(100, 2.0, 8) > e.joules(50, 2.0, 8));
    }

    @Test
    void moreBytesCostMoreEnergy() {
        ChipEnergy e = energy(HW.chip("b200"));
        double base = e.dynamicJoules(1e15, Precision.BF16, 1e10, 1e9, 1e8);
        assertTrue(e.dynamicJoules(1e15, Precision.BF16, 2e10, 1e9, 1e8) > base);
        assertTrue(e.dynamicJoules(1e15, Precision.BF16, 1e10, 2e9, 1e8) > base);
        assertTrue(e.dynamicJoules(1e15, Precision.BF16, 1e10, 1e9, 2e8) > base);
        // A scale-out byte (NIC + optics) costs more than a scale-up byte (NVLink).
        assertTrue(e.scaleOutJoulesPerByte() > e.scaleUpJoulesPerByte());
    }

    /**
     * Cross-check, not a fit: the TDP-anchored bf16 energy of each node's reference chip is at least the node recipe's
     * MAC energy (logic_nodes.csv bf16_pj_per_flop x architectures.csv energy_scale, at nominal voltage) and within 4x
     * of it: the anchor also carries register/SMEM/L2 traffic, clock tree and the boost voltage above nominal.
     */
    @Test
    void anchoredEnergyAgreesWithTheNodeRecipeWithinTwoFold() {
        String[][] refs = {{"a100-80g", "ampere"}, {"h100-sxm", "hopper"}, {"b200", "blackwell"}};
        for (String[] r : refs) {
            Chip chip = HW.chip(r[0]);
            var arch = TECH.architecture(r[1]);
            var node = TECH.node(HW.logicNode(r[0]));
            double recipe = node.bf16JoulesPerFlop() * arch.energyScale();
            double anchored = energy(chip).joulesPerFlop(Precision.BF16);
            System.out.printf("%s node %s recipe %.3f pJ/FLOP anchored %.3f pJ/FLOP%n", r[0], node.id(),
                    recipe * 1e12, anchored * 1e12);
            assertTrue(anchored / recipe >= 1 && anchored / recipe < 4, r[0] + " " + anchored / recipe);
        }
    }
}
