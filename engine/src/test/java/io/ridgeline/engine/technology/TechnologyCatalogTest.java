package io.ridgeline.engine.technology;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TechnologyCatalogTest {
    private final TechnologyCatalog cat = TechnologyCatalog.bundled();

    @Test
    void nodeSeriesFollowsTheDeepFlowRecipePerFullStep() {
        LogicNode n7 = cat.node("7nm");
        for (LogicNode n : cat.nodes().values()) {
            int s = n.stepsFrom7nm();
            assertEquals(Math.pow(0.67, s), n.logicAreaScale(), 1e-3 * Math.pow(0.67, s), n.id() + " area");
            assertEquals(n7.sramMm2PerMib() * Math.pow(0.67, s), n.sramMm2PerMib(), 2e-3 * n.sramMm2PerMib(),
                    n.id() + " sram");
            assertEquals(n7.bf16JoulesPerFlop() * Math.pow(0.54, s), n.bf16JoulesPerFlop(),
                    2e-3 * n.bf16JoulesPerFlop(), n.id() + " energy");
            assertEquals(n7.nominalVolts() * Math.pow(0.9, s), n.nominalVolts(), 1e-3, n.id() + " voltage");
            assertFalse(n.source().isBlank());
        }
        assertEquals(List.of("12nm", "7nm", "5nm", "3nm", "2nm", "1nm"), List.copyOf(cat.nodes().keySet()));
    }

    @Test
    void cataloguesHoldEveryTechnologyOfTheIssue() {
        assertEquals(List.of("hbm2", "hbm2e", "hbm3", "hbm3e", "hbm4", "hbm4e", "gddr6", "gddr7", "lpddr5x", "ddr5"),
                List.copyOf(cat.drams().keySet()));
        assertTrue(cat.links().keySet().containsAll(List.of("nvlink3", "nvlink4", "nvlink5", "pcie5", "pcie6",
                "ib-hdr", "ib-ndr", "ib-xdr", "eth400", "eth800", "eth1600")));
        cat.drams().values().forEach(d -> assertFalse(d.source().isBlank(), d.id()));
        cat.switches().values().forEach(s -> assertFalse(s.source().isBlank(), s.id()));
    }

    @Test
    void hbmBandwidthPerStackMatchesJedec() {
        assertEquals(409.6e9, cat.dram("hbm2e").bytesPerSecondPerStack(), 1e6);
        assertEquals(819.2e9, cat.dram("hbm3").bytesPerSecondPerStack(), 1e6);
        assertEquals(2048e9, cat.dram("hbm4").bytesPerSecondPerStack(), 1e6);
    }

    @Test
    void alphaPowerLawRisesWithVoltageAndHitsNominalClock() {
        LogicNode n = cat.node("5nm");
        assertEquals(n.nominalHz(), n.frequencyHz(n.nominalVolts()), 1);
        assertTrue(n.frequencyHz(n.maxVolts()) > n.nominalHz());
        assertTrue(n.frequencyHz(n.minVolts()) < n.nominalHz());
        assertEquals(n.bf16JoulesPerFlop() * 1.21, n.bf16JoulesPerFlop(1.1 * n.nominalVolts()), 1e-18);
    }
}
