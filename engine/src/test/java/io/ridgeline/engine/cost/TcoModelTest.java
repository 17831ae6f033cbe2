package io.ridgeline.engine.cost;

import io.ridgeline.engine.cost.TcoParameters.Knob;
import io.ridgeline.engine.cost.NetworkCapex;
import io.ridgeline.engine.spec.InvalidInputException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TcoModelTest {
    private final TcoModel tco = new TcoModel(TcoParameters.defaults());

    @Test
    void gpuHourFollowsTheFormulaOfModelSection8() {
        GpuHourCost c = tco.gpuHour(30000, 700);
        double server = 30000 * 1.64;
        double network = server * 0.19 / 0.81;
        assertEquals(network / (server + network), 0.19, 1e-12, "network is 19% of cluster capex");
        assertEquals(server + network, c.capexUsdPerGpu(), 1e-9);
        assertEquals((server + network) / (4 * 8766), c.capexUsdPerHour(), 1e-12);
        assertEquals(700 * 1.8 * 0.75 * 1.2, c.wallWattsPerGpu(), 1e-9);
        double energy = 700 * 1.8 * 0.75 * 1.2 / 1000 * 0.08;
        assertEquals((c.capexUsdPerHour() + energy) / 0.9, c.usdPerGpuHour(), 1e-12);
        // An H100 at $30k lands near public ~$2/GPU-hour cloud-like TCO figures.
        assertTrue(c.usdPerGpuHour() > 1.0 && c.usdPerGpuHour() < 3.0, "H100 $/GPU-h: " + c.usdPerGpuHour());
    }

    @Test
    void everyParameterMovesTheResultTheRightWay() {
        double base = tco.gpuHour(30000, 700).usdPerGpuHour();
        TcoParameters d = TcoParameters.defaults();
        assertTrue(new TcoModel(d.with(Knob.AMORTIZATION_YEARS, 5)).gpuHour(30000, 700).usdPerGpuHour() < base);
        assertTrue(new TcoModel(d.with(Knob.PUE, 1.5)).gpuHour(30000, 700).usdPerGpuHour() > base);
        assertTrue(new TcoModel(d.with(Knob.USD_PER_KWH, 0.2)).gpuHour(30000, 700).usdPerGpuHour() > base);
        assertTrue(new TcoModel(d.with(Knob.AVAILABILITY_FRACTION, 0.5)).gpuHour(30000, 700).usdPerGpuHour() > base);
        assertTrue(new TcoModel(d.with(Knob.SERVER_OVERHEAD_FACTOR, 2)).gpuHour(30000, 700).usdPerGpuHour() > base);
        assertTrue(new TcoModel(d.with(Knob.INTERCONNECT_FRACTION, 0.3)).gpuHour(30000, 700).usdPerGpuHour() > base);
        assertTrue(new TcoModel(d.with(Knob.SERVER_POWER_FACTOR, 2.5)).gpuHour(30000, 700).usdPerGpuHour() > base);
        assertTrue(new TcoModel(d.with(Knob.LOAD_FRACTION, 1.0)).gpuHour(30000, 700).usdPerGpuHour() > base);
    }

    @Test
    void pricedFabricReplacesTheInterconnectShare() {
        NetworkCapex fabric = new NetworkCapex(10, 100, 200, 64, 350000, 80000, 20000, 160000, 7500);
        GpuHourCost c = tco.gpuHour(30000, 700, fabric, 64);
        assertEquals(610000 / 64.0, c.networkUsdPerGpu(), 1e-9);
        assertEquals(30000 * 1.64 + 610000 / 64.0, c.capexUsdPerGpu(), 1e-9);
        assertEquals(700 * 1.8 * 0.75 * 1.2 + 7500 / 64.0 * 0.75 * 1.2, c.wallWattsPerGpu(), 1e-9);
    }

    @Test
    void runAndTokenCostsScaleWithTimeAndThroughput() {
        GpuHourCost c = tco.gpuHour(30000, 700);
        assertEquals(c.usdPerGpuHour() * 1024 * 10, TcoModel.runUsd(c, 1024, 36000), 1e-6);
        double perMillion = TcoModel.usdPerMillionTokens(c, 8, 10000);
        assertEquals(c.usdPerGpuHour() * 8 / 3600 / 10000 * 1e6, perMillion, 1e-12);
        assertEquals(perMillion / 2, TcoModel.usdPerMillionTokens(c, 8, 20000), 1e-12);
    }

    @Test
    void rejectsOutOfRangeParametersTogether() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> TcoParameters.defaults().with(Knob.PUE, 0.9).with(Knob.AVAILABILITY_FRACTION, 0));
        assertEquals("tco parameters: tco.pue: expected a ratio >= 1, found 0.9", e.getMessage());
        InvalidInputException e2 = assertThrows(InvalidInputException.class,
                () -> new TcoParameters(1.64, 1.0, 0, 1.8, 0.75, 1.2, 0.08, 0.9));
        assertEquals(2, e2.errors().size());
    }
}
