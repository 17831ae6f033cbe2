package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.CollectiveCurve;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The decode TP all-reduce on NVLink 5 follows the nccl-tests curve measured on Blackwell (Azure ND GB200 v6, 4 GPUs,
 * microbench G0156-G0179), not the H100 curve scaled to twice the link rate: at the message sizes of a large decode
 * batch NCCL is far from its plateau, and its per-message cost does not halve with the link.
 */
class TensorParallelAllReduceTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final ModelSpec L70 = ModelCatalog.bundled().model("llama3-70b");
    static final Chip B200 = HW.chip("b200");
    static final SystemSpec NODE = SystemSpec.of(B200, 8, HW.defaultNetwork(B200));

    @Test
    void blackwellHasItsOwnMeasuredCurveOnFourRanks() {
        CollectiveCurve b = HW.curve(B200);
        assertEquals("blackwell", b.family());
        assertEquals(4, b.referenceRanks());
        // G0174 (33,554,432 B): 422.62 GB/s busbw over NVLink 5's 900 GB/s.
        assertEquals(422.62 / 900, b.efficiency(33554432), 1e-9);
        // The floor: 1 KiB x 2 (4 - 1) / 4 / 0.10 GB/s over the 4 latency steps of a 4-rank all-reduce.
        assertEquals(1024 * 1.5 / 0.10e9 / 4, b.stepLatencySeconds(), 1e-15);
        // Blackwell Ultra keeps NVLink 5 and takes the same curve.
        assertSame(b, HW.curve(HW.chip("b300")));
    }

    @Test
    void midSizeAllReduceOnFourB200sCostsAtLeastWhatNcclMeasuredThere() {
        Replica tp4 = new Replica(L70, NODE, InferencePlan.tensorParallel(4), HW);
        // ~2048 decode tokens x hidden 8192 x bf16 = 33.5 MB, the all-reduce of a saturated 70B decode step.
        double bytes = 2048 * 8192 * 2;
        double t = tp4.tpAllReduceSeconds(bytes, new Breakdown(), 0);
        // nccl-tests at that size on 4 GPUs (bytes x 2 (p - 1) / p / busbw) beyond its small-message floor (the
        // runtime pays its own latency instead, FixedCosts).
        double floor = 1024 * 1.5 / 0.10e9;
        double measured = bytes * 1.5 / 422.62e9 - floor;
        assertTrue(t >= measured, "all-reduce " + t + " s below the measured " + measured + " s");
        // What the H100 curve scaled to 900 GB/s gave (295.53 GB/s of 450 at 33.5 MB): 40% less than measured.
        double hopperScaled = bytes * 1.5 / (295.53 / 450 * 900e9);
        assertTrue(t > 1.3 * hopperScaled, "all-reduce " + t + " s near the Hopper-scaled " + hopperScaled + " s");
    }
}
