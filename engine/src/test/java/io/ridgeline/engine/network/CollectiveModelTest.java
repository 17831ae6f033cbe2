package io.ridgeline.engine.network;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.CollectiveCurve;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CollectiveModelTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private final SystemSpec a100 = SystemSpec.of(HW.chip("a100-80g"), 64, HW.network("hdr"));
    private final CollectiveModel model = new CollectiveModel(a100, HW.curve(a100.chip()));

    @Test
    void reproducesTheMeasuredNcclCurveOnEightGpus() {
        // microbench.csv G0036 (134 MB, 174.18 GB/s busbw) and G0042 (8 GB, 231.58 GB/s).
        double[][] points = {{134217728, 174.18e9}, {8589934592.0, 231.58e9}, {1024, 0.04e9}};
        for (double[] pt : points) {
            double expected = pt[0] * 2 * 7 / 8 / pt[1];
            assertEquals(expected, model.allReduce(pt[0], new Group(8, 8)), expected * 1e-9);
        }
    }

    @Test
    void ringAllReduceAcrossNodesFollowsAlphaBeta() {
        double bytes = 1e9;
        double out = a100.scaleOut().bytesPerSecond() * a100.scaleOut().efficiency();
        double alpha = a100.scaleOut().stepLatencySeconds();
        double p = 8;
        double expected = CollectiveCurve.latencySteps(8) * alpha + 2 * (p - 1) / p * bytes / out;
        assertEquals(expected, model.allReduce(bytes, new Group(8, 1)), expected * 1e-12);
    }

    @Test
    void hierarchicalAllReduceBeatsAFlatScaleOutRing() {
        double bytes = 4e9;
        double hierarchical = model.allReduce(bytes, new Group(64, 8));
        double flat = model.allReduce(bytes, new Group(64, 1));
        assertTrue(hierarchical < flat, hierarchical + " vs " + flat);
    }

    @Test
    void reduceScatterIsAboutHalfAnAllReduceForLargeMessages() {
        double ar = model.allReduce(1e9, new Group(8, 1));
        double rs = model.reduceScatter(1e9, new Group(8, 1));
        assertEquals(0.5, rs / ar, 0.01);
    }

    @Test
    void allGatherAcrossManyNodesPaysTheFlatRingLatencyOfEveryRank() {
        // NCCL runs all-gather/reduce-scatter as one ring over all ranks (tuning.cc: (p - N) intra + (N - 1) inter
        // steps): 512 ranks on 64 nodes pay 448 NVLink and 63 network steps, however small the buffer.
        SystemSpec big = SystemSpec.of(HW.chip("a100-80g"), 512, HW.network("hdr"));
        CollectiveModel m = new CollectiveModel(big, HW.curve(big.chip()));
        double ring = 448 * big.scaleUpStepLatencySeconds() + 63 * big.scaleOut().stepLatencySeconds();
        double tiny = m.allGather(1024, new Group(512, 8));
        assertTrue(tiny >= ring, tiny + " vs ring latency " + ring);
        assertTrue(tiny < ring * 1.2, tiny + " vs ring latency " + ring);
        // The same bytes over 128 ranks on 16 nodes: a quarter of the steps.
        double small = m.allGather(1024, new Group(128, 8));
        assertTrue(small < tiny / 3, small + " vs " + tiny);
    }

    @Test
    void allReduceKeepsItsTreeLatencyAcrossNodes() {
        // All-reduce has NCCL's tree (2 log2 p steps): 512 ranks cost far less latency than a flat ring.
        SystemSpec big = SystemSpec.of(HW.chip("a100-80g"), 512, HW.network("hdr"));
        CollectiveModel m = new CollectiveModel(big, HW.curve(big.chip()));
        double ring = 448 * big.scaleUpStepLatencySeconds() + 63 * big.scaleOut().stepLatencySeconds();
        assertTrue(m.allReduce(1024, new Group(512, 8)) < ring / 2);
    }

    @Test
    void singleRankGroupsCostNothing() {
        assertEquals(0, model.allReduce(1e9, Group.SINGLE));
        assertEquals(0, model.allToAll(1e9, Group.SINGLE));
    }

    @Test
    void placementPutsTensorParallelInsideTheNode() {
        assertEquals(new Group(8, 8, 1), Placement.group(8, 1, 8));
        assertEquals(new Group(4, 2, 4), Placement.group(4, 4, 8));
        assertEquals(new Group(16, 1, 8), Placement.group(16, 8, 8));
        assertEquals(8, Placement.group(16, 8, 8).interDomainStride());
        assertTrue(Placement.pipelineCrossesDomains(8, 8));
    }
}
