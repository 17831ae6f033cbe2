package io.ridgeline.engine.network;

import io.ridgeline.engine.cost.NetworkCapex;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.technology.LinkType;
import io.ridgeline.engine.technology.SwitchType;

import java.util.List;

/**
 * Indirect fabrics described as nested subtrees: fat-tree (leaf, pod), rail-optimized (per-rail leaves under a shared
 * spine) and dragonfly (router, group). Traffic that leaves a subtree of level t shares its uplinks, which carry
 * 1 / oversubscription of what the subtree's endpoints inject.
 *
 * <p>Cut model (every endpoint runs an identical group at once): a group with r of its p ranks in one subtree sends
 * a fraction f of its traffic out of it, f = S/p for ring collectives (S subtrees spanned, one crossing each),
 * (p - r)/p for all-to-all, min(1, stride / m) for point-to-point. The rank's bandwidth is injection / max(1, f x
 * oversubscription) over all levels the group crosses; latency is the link plus the switch hops of the highest
 * level crossed.
 */
public final class HierarchicalFabric implements Topology {

    /**
     * One level of nesting.
     *
     * @param subtreeEndpoints endpoints under one subtree of this level
     * @param oversubscription injected over uplink bandwidth for traffic leaving the subtree
     * @param hops             switch/router hops of a path that leaves the subtree
     * @param valiant          non-minimal routing doubles the load when a group spans only some subtrees (dragonfly)
     * @param subtrees         number of such subtrees in the fabric
     */
    public record Level(int subtreeEndpoints, double oversubscription, int hops, boolean valiant, int subtrees) {
    }

    private final String kind;
    private final int endpoints;
    private final LinkType link;
    private final SwitchType switchType;
    private final int baseHops;
    private final List<Level> levels;
    private final int rails;
    private final NetworkCapex capex;

    private HierarchicalFabric(String kind, int endpoints, LinkType link, SwitchType switchType, int baseHops,
                               List<Level> levels, int rails, NetworkCapex capex) {
        this.kind = kind;
        this.endpoints = endpoints;
        this.link = link;
        this.switchType = switchType;
        this.baseHops = baseHops;
        this.levels = List.copyOf(levels);
        this.rails = rails;
        this.capex = capex;
    }

    private static InvalidInputException error(String field, String expected, Object found) {
        return new InvalidInputException(InputError.of("topology", field, expected, String.valueOf(found)));
    }

    private static void checkSwitch(String kind, LinkType link, SwitchType sw) {
        if (!sw.link().id().equals(link.id())) {
            throw error(kind + ".switch", "a switch with " + link.id() + " ports", sw.id() + " (" + sw.link().id()
                    + ")");
        }
    }

    /** Down ports of a switch whose down:up ratio is {@code o}:1. */
    private static int downPorts(int radix, double o) {
        return (int) Math.floor(radix * o / (o + 1) + 1e-9);
    }

    /**
     * A 2- or 3-tier fat-tree (folded Clos) of {@code endpoints} NIC ports.
     *
     * @param oversubscription down:up ratio at each tier boundary, leaf first (length tiers - 1; 1 = non-blocking)
     */
    public static HierarchicalFabric fatTree(int endpoints, LinkType link, SwitchType sw, int tiers,
                                             double... oversubscription) {
        checkSwitch("fatTree", link, sw);
        if (tiers < 2 || tiers > 3) {
            throw error("fatTree.tiers", "2 or 3", tiers);
        }
        if (oversubscription.length != tiers - 1) {
            throw error("fatTree.oversubscription", (tiers - 1) + " ratios (one per tier boundary)",
                    oversubscription.length);
        }
        for (double o : oversubscription) {
            if (!(o >= 1)) {
                throw error("fatTree.oversubscription", "ratios >= 1 (down:up)", o);
            }
        }
        int r = sw.radix();
        int m1 = downPorts(r, oversubscription[0]);
        int leaves = (int) Math.ceil((double) endpoints / m1);
        if (tiers == 2) {
            long max = (long) m1 * r;
            if (endpoints < 1 || endpoints > max) {
                throw error("fatTree.endpoints", "1 to " + max + " for 2 tiers of radix " + r + " (use 3 tiers)",
                        endpoints);
            }
            int uplinks = leaves > 1 ? leaves * (r - m1) : 0;
            int spines = (int) Math.ceil((double) uplinks / r);
            List<Level> levels = List.of(new Level(m1, oversubscription[0], 3, false, leaves));
            return new HierarchicalFabric("fat-tree", endpoints, link, sw, 1, levels, 1,
                    capex(link, sw, endpoints, leaves + spines, uplinks));
        }
        int d2 = downPorts(r, oversubscription[1]);
        int m2 = m1 * d2;
        long max = (long) m2 * r;
        if (endpoints < 1 || endpoints > max) {
            throw error("fatTree.endpoints", "1 to " + max + " for 3 tiers of radix " + r, endpoints);
        }
        int pods = (int) Math.ceil((double) endpoints / m2);
        int leavesPerPod = (int) Math.ceil((double) Math.min(endpoints, m2) / m1);
        int aggPerPod = leavesPerPod > 1 ? (int) Math.ceil((double) leavesPerPod * (r - m1) / d2) : 0;
        int leafUplinks = aggPerPod > 0 ? leaves * (r - m1) : 0;
        int aggUplinks = pods > 1 ? pods * aggPerPod * (r - d2) : 0;
        int cores = (int) Math.ceil((double) aggUplinks / r);
        List<Level> levels = List.of(new Level(m1, oversubscription[0], 3, false, leaves),
                new Level(m2, oversubscription[0] * oversubscription[1], 5, false, pods));
        return new HierarchicalFabric("fat-tree", endpoints, link, sw, 1, levels, 1,
                capex(link, sw, endpoints, leaves + pods * aggPerPod + cores, leafUplinks + aggUplinks));
    }

    /**
     * Rail-optimized: NIC i of every node joins rail i's leaves (one hop for same-rail traffic); rail leaves share a
     * spine at down:up ratio {@code spineOversubscription}. Endpoint index = node x rails + rail.
     */
    public static HierarchicalFabric railOptimized(int nodes, int rails, LinkType link, SwitchType sw,
                                                   double spineOversubscription) {
        checkSwitch("railOptimized", link, sw);
        if (nodes < 1 || rails < 1) {
            throw error("railOptimized.nodes", "at least one node and one rail", nodes + " x " + rails);
        }
        if (!(spineOversubscription >= 1)) {
            throw error("railOptimized.spineOversubscription", "a ratio >= 1 (down:up)", spineOversubscription);
        }
        int r = sw.radix();
        int m1 = downPorts(r, spineOversubscription);
        long max = (long) m1 * r;
        if (nodes > max) {
            throw error("railOptimized.nodes", "at most " + max + " nodes for radix " + r, nodes);
        }
        int leavesPerRail = (int) Math.ceil((double) nodes / m1);
        int leaves = rails * leavesPerRail;
        int uplinks = leavesPerRail > 1 || rails > 1 ? leaves * (r - m1) : 0;
        int spines = (int) Math.ceil((double) uplinks / r);
        // In endpoint space a rail leaf covers m1 nodes x rails endpoints (for groups that stay on one rail).
        List<Level> levels = List.of(new Level(m1 * rails, spineOversubscription, 3, false, leavesPerRail));
        return new HierarchicalFabric("rail-optimized", nodes * rails, link, sw, 1, levels, rails,
                capex(link, sw, nodes * rails, leaves + spines, uplinks));
    }

    /**
     * Dragonfly (Kim et al., ISCA 2008): {@code groups} groups of {@code routersPerGroup} routers, all-to-all local
     * links inside a group, {@code globalLinksPerRouter} global links per router, {@code endpointsPerRouter} endpoints
     * per router. Minimal routing for uniform traffic, Valiant (2x load) when a group spans only some groups.
     */
    public static HierarchicalFabric dragonfly(int groups, int routersPerGroup, int endpointsPerRouter,
                                               int globalLinksPerRouter, LinkType link, SwitchType router) {
        checkSwitch("dragonfly", link, router);
        int a = routersPerGroup;
        int pe = endpointsPerRouter;
        int h = globalLinksPerRouter;
        if (groups < 2 || a < 1 || pe < 1 || h < 1) {
            throw error("dragonfly.groups", ">= 2 groups and >= 1 router, endpoint and global link per router",
                    groups + "/" + a + "/" + pe + "/" + h);
        }
        if (pe + (a - 1) + h > router.radix()) {
            throw error("dragonfly.radix", "endpoints + local + global ports <= radix " + router.radix(),
                    pe + (a - 1) + h);
        }
        if (groups > a * h + 1) {
            throw error("dragonfly.groups", "at most routers x global links + 1 = " + (a * h + 1), groups);
        }
        double localO = a > 1 ? Math.max(1, (double) pe / (a - 1)) : 1;
        double globalO = Math.max(localO, (double) pe / h);
        List<Level> levels = List.of(new Level(pe, localO, 2, false, groups * a),
                new Level(a * pe, globalO, 3, true, groups));
        int endpoints = groups * a * pe;
        int routers = groups * a;
        int local = groups * a * (a - 1) / 2;
        int global = groups * a * h / 2;
        NetworkCapex c = new NetworkCapex(routers, 2 * global, endpoints + local + global, endpoints,
                routers * router.usd(), 2.0 * global * link.opticUsd(),
                (endpoints + local + global) * link.cableUsd(), endpoints * link.usdPerPort(),
                routers * router.watts());
        return new HierarchicalFabric("dragonfly", endpoints, link, router, 1, levels, 1, c);
    }

    /** Endpoint links are copper; switch-to-switch links optical (two transceivers and a fibre each). */
    private static NetworkCapex capex(LinkType link, SwitchType sw, int endpoints, int switches, int uplinks) {
        int cables = endpoints + uplinks;
        return new NetworkCapex(switches, 2 * uplinks, cables, endpoints, switches * sw.usd(),
                2.0 * uplinks * link.opticUsd(), cables * link.cableUsd(), endpoints * link.usdPerPort(),
                switches * sw.watts());
    }

    @Override
    public String kind() {
        return kind;
    }

    @Override
    public int endpoints() {
        return endpoints;
    }

    @Override
    public double injectionBytesPerSecond() {
        return link.bytesPerSecond();
    }

    public List<Level> levels() {
        return levels;
    }

    @Override
    public PathEstimate estimate(CollectivePattern pattern, int ranks, int stride) {
        checkGroup(ranks, stride);
        double slowdown = 1;
        int hops = baseHops;
        boolean crossRail = rails > 1 && stride % rails != 0 && (long) (ranks - 1) * stride >= rails;
        for (Level level : levels) {
            int m = crossRail ? 1 : level.subtreeEndpoints();
            int inSubtree = Math.min(ranks, Math.max(1, m / stride));
            if (inSubtree >= ranks) {
                break;
            }
            int spanned = (int) Math.ceil((double) ranks / inSubtree);
            double f = switch (pattern) {
                case ALL_TO_ALL -> (double) (ranks - inSubtree) / ranks;
                case SEND_RECV -> Math.min(1.0, (double) stride / m);
                default -> (double) spanned / ranks;
            };
            double o = level.oversubscription();
            int levelHops = level.hops();
            if (level.valiant() && spanned < level.subtrees()) {
                o *= 2;
                levelHops += 2;
            }
            slowdown = Math.max(slowdown, f * o);
            hops = levelHops;
        }
        return new PathEstimate(link.bytesPerSecond() / slowdown,
                link.latencySeconds() + hops * switchType.latencySeconds(), hops);
    }

    @Override
    public NetworkCapex capex() {
        return capex;
    }

    @Override
    public String toString() {
        return kind + "[" + endpoints + " x " + link.id() + ", " + levels + "]";
    }
}
