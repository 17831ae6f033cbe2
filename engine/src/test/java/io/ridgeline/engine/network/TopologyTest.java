package io.ridgeline.engine.network;

import io.ridgeline.engine.cost.NetworkCapex;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.technology.LinkType;
import io.ridgeline.engine.technology.TechnologyCatalog;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TopologyTest {
    private static final TechnologyCatalog CAT = TechnologyCatalog.bundled();
    private static final LinkType NDR = CAT.link("ib-ndr");
    private static final double GB = 1e9;

    private static HierarchicalFabric fullFatTree(int endpoints) {
        return HierarchicalFabric.fatTree(endpoints, NDR, CAT.switchType("quantum2-ndr"), 2, 1.0);
    }

    @Test
    void allToAllOnRingIsSlowerThanOnFullBisectionFatTreeOfSameLinkSpeed() {
        RingTopology ring = new RingTopology(64, 1, NDR);
        HierarchicalFabric tree = fullFatTree(64);
        TopologyCollectives onRing = new TopologyCollectives(ring, 1.0);
        TopologyCollectives onTree = new TopologyCollectives(tree, 1.0);
        double bytes = 1 << 28;
        double tRing = onRing.allToAllSeconds(bytes, 64, 1);
        double tTree = onTree.allToAllSeconds(bytes, 64, 1);
        assertTrue(tRing > 5 * tTree, "ring bisection (2 links) must throttle all-to-all: " + tRing + " vs " + tTree);
        // While the ring all-reduce uses both neighbours and is not slower than the tree's single NIC.
        assertTrue(onRing.allReduceSeconds(bytes, 64, 1) <= onTree.allReduceSeconds(bytes, 64, 1));
    }

    @Test
    void allToAllOnTorusSitsBetweenRingAndFatTree() {
        TorusTopology torus = new TorusTopology(new int[]{8, 8}, 1, NDR);
        double ring = new RingTopology(64, 1, NDR).estimate(CollectivePattern.ALL_TO_ALL, 64, 1).bytesPerSecond();
        double t2 = torus.estimate(CollectivePattern.ALL_TO_ALL, 64, 1).bytesPerSecond();
        double t3 = new TorusTopology(new int[]{4, 4, 4}, 1, NDR)
                .estimate(CollectivePattern.ALL_TO_ALL, 64, 1).bytesPerSecond();
        double tree = fullFatTree(64).estimate(CollectivePattern.ALL_TO_ALL, 64, 1).bytesPerSecond();
        assertTrue(ring < t2 && t2 < t3, "more dimensions, more bisection: " + ring + " < " + t2 + " < " + t3);
        // 8x8 torus: bisection 2 x 8 links; per-rank rate 4 x 16L x 63 / 64^2 = 0.98 L, just under the tree's L.
        assertEquals(4 * 16 * 50 * GB * 63 / (64.0 * 64), t2, 1);
        assertTrue(t2 < tree);
    }

    @Test
    void oversubscriptionSlowsCrossPodAllReduce() {
        // 3-tier fat-tree of radix-64 switches: 32-port leaves, pods of 32 leaves = 1024 endpoints.
        int endpoints = 4096;
        var sw = CAT.switchType("quantum2-ndr");
        HierarchicalFabric full = HierarchicalFabric.fatTree(endpoints, NDR, sw, 3, 1, 1);
        double bytes = 1 << 30;
        for (int k : new int[]{2, 4, 7}) {
            HierarchicalFabric over = HierarchicalFabric.fatTree(endpoints, NDR, sw, 3, 1, k);
            // A data-parallel group with one rank per pod (stride 1024): every ring hop crosses pods.
            double tFull = new TopologyCollectives(full, 0.9).allReduceSeconds(bytes, 4, 1024);
            double tOver = new TopologyCollectives(over, 0.9).allReduceSeconds(bytes, 4, 1024);
            assertEquals(k, full.estimate(CollectivePattern.ALL_REDUCE, 4, 1024).bytesPerSecond()
                    / over.estimate(CollectivePattern.ALL_REDUCE, 4, 1024).bytesPerSecond(), 1e-9);
            assertTrue(tOver > 0.9 * k * tFull, "1:" + k + " should slow the cross-pod all-reduce ~" + k + "x");
            // A group inside one pod does not notice.
            assertEquals(full.estimate(CollectivePattern.ALL_REDUCE, 64, 1).bytesPerSecond(),
                    over.estimate(CollectivePattern.ALL_REDUCE, 64, 1).bytesPerSecond(), 1e-6);
        }
    }

    @Test
    void contiguousRingsBarelyCrossPodsSoOversubscriptionHurtsThemLess() {
        var sw = CAT.switchType("quantum2-ndr");
        HierarchicalFabric over = HierarchicalFabric.fatTree(4096, NDR, sw, 3, 1, 4);
        double contiguous = over.estimate(CollectivePattern.ALL_REDUCE, 4096, 1).bytesPerSecond();
        double spread = over.estimate(CollectivePattern.ALL_REDUCE, 4, 1024).bytesPerSecond();
        double allToAll = over.estimate(CollectivePattern.ALL_TO_ALL, 4096, 1).bytesPerSecond();
        assertEquals(NDR.bytesPerSecond(), contiguous, 1, "4 pod crossings in a 4096-rank ring are negligible");
        assertTrue(spread < contiguous);
        // 1:4 aggregation uplinks: 51 of 64 ports down, pods of 32 x 51 = 1632 endpoints. All-to-all sends
        // (4096 - 1632) / 4096 of its bytes out of the pod, through uplinks carrying 1/4 of the injection.
        assertEquals(1632, over.levels().get(1).subtreeEndpoints());
        assertEquals(NDR.bytesPerSecond() / (4.0 * (4096 - 1632) / 4096), allToAll, 1);
    }

    @Test
    void crossingMoreTiersAddsHopLatency() {
        var sw = CAT.switchType("quantum2-ndr");
        HierarchicalFabric t = HierarchicalFabric.fatTree(4096, NDR, sw, 3, 1, 1);
        assertEquals(1, t.estimate(CollectivePattern.ALL_REDUCE, 8, 1).hops());
        assertEquals(3, t.estimate(CollectivePattern.ALL_REDUCE, 64, 1).hops());
        assertEquals(5, t.estimate(CollectivePattern.ALL_REDUCE, 2048, 1).hops());
        assertTrue(t.estimate(CollectivePattern.ALL_REDUCE, 2048, 1).stepLatencySeconds()
                > t.estimate(CollectivePattern.ALL_REDUCE, 8, 1).stepLatencySeconds());
    }

    @Test
    void railOptimizedKeepsSameRailTrafficOnOneLeafAndPenalisesCrossRail() {
        var sw = CAT.switchType("quantum2-ndr");
        // 32 nodes x 8 rails; each rail leaf has 32 down ports -> one leaf per rail.
        HierarchicalFabric rail = HierarchicalFabric.railOptimized(32, 8, NDR, sw, 1.0);
        PathEstimate sameRail = rail.estimate(CollectivePattern.ALL_REDUCE, 32, 8);
        assertEquals(1, sameRail.hops());
        assertEquals(NDR.bytesPerSecond(), sameRail.bytesPerSecond(), 1);
        PathEstimate crossRail = rail.estimate(CollectivePattern.ALL_TO_ALL, 32, 3);
        assertEquals(3, crossRail.hops(), "cross-rail traffic climbs to the spine");
        HierarchicalFabric railOver = HierarchicalFabric.railOptimized(32, 8, NDR, sw, 3.0);
        assertTrue(railOver.estimate(CollectivePattern.ALL_TO_ALL, 32, 3).bytesPerSecond()
                < crossRail.bytesPerSecond());
        assertEquals(8, rail.capex().switchCount() - (int) Math.ceil(8 * 32 / 64.0));
    }

    @Test
    void dragonflyUsesValiantForGroupsSpanningFewGroups() {
        LinkType link = CAT.link("eth800");
        var router = CAT.switchType("tomahawk5");
        // Balanced dragonfly a = 2p = 2h: p = 8, a = 16, h = 8 -> up to 129 groups; use 16.
        HierarchicalFabric df = HierarchicalFabric.dragonfly(16, 16, 8, 8, link, router);
        assertEquals(16 * 16 * 8, df.endpoints());
        PathEstimate inRouter = df.estimate(CollectivePattern.ALL_REDUCE, 8, 1);
        assertEquals(1, inRouter.hops());
        PathEstimate twoGroups = df.estimate(CollectivePattern.ALL_TO_ALL, 256, 1);
        PathEstimate allGroups = df.estimate(CollectivePattern.ALL_TO_ALL, 2048, 1);
        assertEquals(5, twoGroups.hops(), "Valiant: local-global-local-global-local");
        assertEquals(3, allGroups.hops(), "uniform traffic routes minimally");
        assertTrue(allGroups.bytesPerSecond() >= twoGroups.bytesPerSecond());
        assertThrows(InvalidInputException.class, () -> HierarchicalFabric.dragonfly(200, 16, 8, 8, link, router));
    }

    @Test
    void switchedDomainOfAnySizeIsFullBisection() {
        LinkType nv = CAT.link("nvlink5");
        var sw = CAT.switchType("nvswitch4");
        SwitchedDomain nvl72 = new SwitchedDomain(72, 18, nv, sw);
        SwitchedDomain nvl576 = new SwitchedDomain(576, 18, nv, sw);
        assertEquals(900e9, nvl72.estimate(CollectivePattern.ALL_TO_ALL, 72, 1).bytesPerSecond(), 1);
        assertEquals(900e9, nvl576.estimate(CollectivePattern.ALL_TO_ALL, 576, 1).bytesPerSecond(), 1);
        assertEquals(1, nvl72.estimate(CollectivePattern.ALL_REDUCE, 72, 1).hops());
        assertEquals(3, nvl576.estimate(CollectivePattern.ALL_REDUCE, 576, 1).hops());
        // NVL72: 72 x 18 links over radix-72 switches = 18 switch chips (NVIDIA GB200 NVL72 brief).
        assertEquals(18, nvl72.capex().switchCount());
        assertTrue(nvl576.capex().opticCount() > 0 && nvl72.capex().opticCount() == 0);
    }

    @Test
    void capexGrowsWithOversubscriptionRemoved() {
        var sw = CAT.switchType("quantum2-ndr");
        NetworkCapex full = HierarchicalFabric.fatTree(4096, NDR, sw, 3, 1, 1).capex();
        NetworkCapex over = HierarchicalFabric.fatTree(4096, NDR, sw, 3, 1, 7).capex();
        assertTrue(full.totalUsd() > over.totalUsd());
        assertTrue(full.switchCount() > over.switchCount());
        assertEquals(4096, full.nicCount());
        // Non-blocking 3-tier k=64 fat-tree for 4096 hosts: 128 leaves + 128 aggregation + 64 cores.
        assertEquals(128 + 128 + 64, full.switchCount());
    }

    @Test
    void rejectsFabricTooLargeForTwoTiers() {
        var sw = CAT.switchType("quantum2-ndr");
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> HierarchicalFabric.fatTree(5000, NDR, sw, 2, 1));
        assertEquals("topology: fatTree.endpoints: expected 1 to 2048 for 2 tiers of radix 64 (use 3 tiers), "
                + "found 5000", e.getMessage());
    }
}
