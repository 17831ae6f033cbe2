package io.ridgeline.engine.technology;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.Precision;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The catalogued H100 SXM 96 GB at its 500 W power limit (catalog/chips.csv h100-sxm-96g, torchtitan's 2024 benchmark
 * hosts) takes its clock from the engine's own power model: GH100 rebuilt at 500 W with the part's memory (6 x HBM2e,
 * 96 GB at 2.4 TB/s) against the same rebuild at H100 SXM's 700 W with 5 x HBM3, applied to H100 SXM's datasheet
 * peaks and clock (docs/TECHNOLOGY.md sec. 2: the power budget sets the voltage and with it the clock).
 */
class PowerLimitedVariantTest {

    /** The rebuild's clock ratio, 500 W with 6 x HBM2e over 700 W with 5 x HBM3. */
    private static double clockRatio() {
        DerivedChip at500 = Rebuilds.h100().powerBudgetWatts(500).dram("hbm2e", 6).dramPinGbitPerSecond(3.125).build();
        DerivedChip at700 = Rebuilds.h100().build();
        assertEquals(FrequencyLimit.POWER, at500.frequencyLimit(), "500 W must bind the clock");
        assertEquals(2.4e12, at500.chip().memoryBytesPerSecond(), 0.01e12, "6 x 1024 pins x 3.125 Gb/s");
        return at500.frequencyHz() / at700.frequencyHz();
    }

    @Test
    void presetPeaksAndClockAreTheSxmsScaledByThePowerModel() {
        double r = clockRatio();
        Chip sxm = Rebuilds.preset("h100-sxm");
        Chip variant = Rebuilds.preset("h100-sxm-96g");
        System.out.printf("h100-sxm-96g: power-model clock ratio 500 W / 700 W = %.4f%n", r);
        for (Precision p : new Precision[]{Precision.BF16, Precision.FP16, Precision.FP8}) {
            assertEquals(r, variant.peakFlopsPerSecond(p) / sxm.peakFlopsPerSecond(p), 0.001, p.name());
        }
        assertEquals(r, variant.clockHz() / sxm.clockHz(), 0.001);
    }

    @Test
    void liesBetweenSxmAndNvlAsItsDocumentSays() {
        // torchtitan llama3_h100_202412_torchtitan.md: "the actual peak TFLOPs number is between SXM and NVL".
        double bf16 = Rebuilds.bf16(Rebuilds.preset("h100-sxm-96g"));
        assertTrue(bf16 < 989e12 && bf16 > 835e12, "bf16 peak " + bf16);
    }
}
