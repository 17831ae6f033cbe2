package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.CollectiveCurve;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.software.AllReduceSelection;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which kernel runs a TP all-reduce: TensorRT-LLM's AUTO rule sends a decode all-reduce above 500 kB on 8 ranks (1 MB
 * on 4, the 16 MB workspace on 2) to NCCL, which pays its whole measured floor; below it the one-shot kernel's
 * latency. And the decode TP all-reduce on NVLink 5 follows the nccl-tests curve measured on Blackwell (Azure ND GB200 v6, 4 GPUs,
 * microbench G0156-G0179), not the H100 curve scaled to twice the link rate: at the message sizes of a large decode
 * batch NCCL is far from its plateau, and its per-message cost does not halve with the link.
 */
class TensorParallelAllReduceTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final ModelSpec L70 = ModelCatalog.bundled().model("llama3-70b");
    static final Chip B200 = HW.chip("b200");
    static final SystemSpec NODE = SystemSpec.of(B200, 8, HW.defaultNetwork(B200));
    static final Chip H100 = HW.chip("h100-sxm");
    static final SystemSpec H100_NODE = SystemSpec.of(H100, 8, HW.defaultNetwork(H100));
    static final ServingBehaviour V017 = StackCatalog.bundled().profile("trt-llm@0.17").serving();

    static double latency(ServingBehaviour runtime, int tp, double bytes) {
        Replica r = new Replica(L70, H100_NODE, InferencePlan.tensorParallel(tp).withRuntime(runtime), HW);
        return r.allReduceLatencySeconds(bytes);
    }

    @Test
    void trtLlmHandsAllReducesAboveItsOneShotLimitToNcclWithItsWholeFloor() {
        assertEquals(AllReduceSelection.TRTLLM_ONESHOT_OR_NCCL, V017.allReduceSelection());
        double step = H100_NODE.scaleUpStepLatencySeconds();
        double launch = H100.family().kernelLaunchSeconds();
        // 8 ranks: 6 latency steps (double binary tree). One-shot below 500 kB: launch + 0.6 x 6 steps.
        assertEquals(launch + 0.6 * 6 * step, latency(V017, 8, 400e3), 1e-15);
        // NCCL above: launch + the whole 6-step floor of the nccl-tests curve.
        assertEquals(launch + 6 * step, latency(V017, 8, 600e3), 1e-15);
        // 4 ranks switch at 1 MB, 2 ranks at the 16 MB workspace.
        assertEquals(launch + 0.6 * 4 * step, latency(V017, 4, 900e3), 1e-15);
        assertEquals(launch + 4 * step, latency(V017, 4, 1.1e6), 1e-15);
        assertEquals(launch + 0.6 * 2 * step, latency(V017, 2, 15e6), 1e-15);
        assertEquals(launch + 2 * step, latency(V017, 2, 17e6), 1e-15);
        // A runtime without a size rule keeps its own kernel's latency at every size.
        assertEquals(launch + 0.6 * 6 * step,
                latency(ServingBehaviour.ENGINE_DEFAULT.withCudaGraphs(false), 8, 64e6), 1e-15);
    }

    @Test
    void withoutNvlinkTrtLlmRunsNcclAtEverySize() {
        // AllreducePlugin::selectImplementation: AUTO without NVLink returns NCCL before any size rule.
        Chip l40s = HW.chip("l40s");
        assertFalse(l40s.nvlinkScaleUp());
        assertTrue(H100.nvlinkScaleUp());
        SystemSpec pcieNode = SystemSpec.of(l40s, 8, HW.defaultNetwork(l40s));
        Replica r = new Replica(L70, pcieNode, InferencePlan.tensorParallel(4).withRuntime(V017), HW);
        double step = pcieNode.scaleUpStepLatencySeconds();
        double launch = l40s.family().kernelLaunchSeconds();
        // A 64 kB decode all-reduce, far below the 1 MB one-shot limit of 4 ranks, pays NCCL's whole 4-step floor.
        assertEquals(launch + 4 * step, r.allReduceLatencySeconds(64e3), 1e-15);
        assertEquals(0, AllReduceSelection.TRTLLM_ONESHOT_OR_NCCL.maxKernelBytes(2, false));
        assertEquals(16e6, AllReduceSelection.TRTLLM_ONESHOT_OR_NCCL.maxKernelBytes(2, true));
    }

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
