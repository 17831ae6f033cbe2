package io.ridgeline.engine.sweep;

import io.ridgeline.engine.network.HierarchicalFabric;
import io.ridgeline.engine.network.RingTopology;
import io.ridgeline.engine.network.Topology;
import io.ridgeline.engine.network.TorusTopology;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.technology.LinkType;
import io.ridgeline.engine.technology.SwitchType;
import io.ridgeline.engine.technology.TechnologyCatalog;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One value of a sweep's {@code network.topology} axis: a scale-out fabric by registry name with its parameters. It
 * holds names and numbers only; each executor builds the {@link Topology} per (GPU count, scale-up domain, scale-out
 * network) once, sized so every GPU has a NIC port on the fabric. The link defaults to the point's scale-out network
 * (hdr -> ib-hdr, eth400 -> eth400 ...) and the switch to the first catalogue switch with that link's ports, so the
 * fabric's bandwidth is the network's.
 *
 * @param id       the {@code topology} column value: the entry's {@code name}, or the kind with its parameters
 * @param kind     a {@link #KINDS} key
 * @param link     catalog/links.csv id, or null = from the scale-out network
 * @param switchId catalog/switches.csv id, or null = the first switch with the link's ports
 * @param oversubscription down:up ratios, leaf tier first (fat-tree: one per tier boundary; rail-optimized: spine)
 * @param ints     the kind's integer parameters by key (tiers, routers_per_group, dimensions ...), absent = default
 */
public record TopologyAxis(String id, String kind, String link, String switchId, List<Double> oversubscription,
                           Map<String, Integer> ints) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The flat network of earlier sweeps: every GPU at its full scale-out rate, no bisection limit, no priced fabric. */
    public static final TopologyAxis NONE = new TopologyAxis("none", "none", null, null, List.of(), Map.of());

    /** A topology kind: which keys it takes and how it is sized to a cluster. */
    interface Kind {
        List<String> keys();

        Topology build(TopologyAxis t, int gpus, int scaleUpDomain, LinkType link, SwitchType sw);
    }

    /** The registry: kind name -> builder. Open set (STYLE.md practice 7): add a kind here and in docs/SWEEPS.md. */
    static final Map<String, Kind> KINDS = registry();

    private static Map<String, Kind> registry() {
        Map<String, Kind> k = new LinkedHashMap<>();
        k.put("none", kind(List.of(), (t, gpus, domain, link, sw) -> null));
        // Folded Clos; tiers default to 2 when the cluster fits under one spine layer, else 3.
        k.put("fat-tree", kind(List.of("tiers", "oversubscription", "link", "switch"), (t, gpus, domain, link, sw) -> {
            int tiers = t.ints().getOrDefault("tiers", t.oversubscription().size() > 1 ? 3 : 0);
            double leaf = t.oversubscription().isEmpty() ? 1 : t.oversubscription().get(0);
            double upper = t.oversubscription().size() > 1 ? t.oversubscription().get(1) : 1;
            if (tiers == 2 || tiers == 0) {
                try {
                    return HierarchicalFabric.fatTree(gpus, link, sw, 2, leaf);
                } catch (InvalidInputException e) {
                    if (tiers == 2) {
                        throw e;
                    }
                }
            }
            return HierarchicalFabric.fatTree(gpus, link, sw, 3, leaf, upper);
        }));
        // One rail per GPU of a scale-up node (NIC i of every node on rail i).
        k.put("rail-optimized", kind(List.of("oversubscription", "link", "switch"), (t, gpus, domain, link, sw) ->
                HierarchicalFabric.railOptimized((gpus + domain - 1) / domain, domain, link, sw,
                        t.oversubscription().isEmpty() ? 1 : t.oversubscription().get(0))));
        // Kim et al. 2008; defaults a = p = h = radix / 4 (a balanced dragonfly has a = 2p = 2h; this keeps ports free).
        k.put("dragonfly", kind(List.of("routers_per_group", "endpoints_per_router", "global_links", "link", "switch"),
                (t, gpus, domain, link, sw) -> {
                    int q = Math.max(1, sw.radix() / 4);
                    int a = t.ints().getOrDefault("routers_per_group", q);
                    int p = t.ints().getOrDefault("endpoints_per_router", q);
                    int h = t.ints().getOrDefault("global_links", q);
                    int groups = Math.max(2, (gpus + a * p - 1) / (a * p));
                    return HierarchicalFabric.dragonfly(groups, a, p, h, link, sw);
                }));
        k.put("ring", kind(List.of("links_per_neighbour", "link"), (t, gpus, domain, link, sw) ->
                new RingTopology(Math.max(2, gpus), t.ints().getOrDefault("links_per_neighbour", 1), link)));
        // Near-cubic (or square) block of at least gpus endpoints, dimension 0 fastest.
        k.put("torus", kind(List.of("dimensions", "links_per_neighbour", "link"), (t, gpus, domain, link, sw) -> {
            int d = t.ints().getOrDefault("dimensions", 3);
            int[] dims = new int[d];
            int side = Math.max(2, (int) Math.ceil(Math.pow(gpus, 1.0 / d) - 1e-9));
            long others = 1;
            for (int i = 0; i < d - 1; i++) {
                dims[i] = side;
                others *= side;
            }
            dims[d - 1] = (int) Math.max(2, (gpus + others - 1) / others);
            return new TorusTopology(dims, t.ints().getOrDefault("links_per_neighbour", 1), link);
        }));
        return Map.copyOf(k);
    }

    private static Kind kind(List<String> keys, Builder b) {
        return new Kind() {
            @Override
            public List<String> keys() {
                return keys;
            }

            @Override
            public Topology build(TopologyAxis t, int gpus, int scaleUpDomain, LinkType link, SwitchType sw) {
                return b.build(t, gpus, scaleUpDomain, link, sw);
            }
        };
    }

    @FunctionalInterface
    private interface Builder {
        Topology build(TopologyAxis t, int gpus, int scaleUpDomain, LinkType link, SwitchType sw);
    }

    /** Kind names in a stable order, for messages. */
    static List<String> kindNames() {
        return List.of("none", "fat-tree", "rail-optimized", "dragonfly", "ring", "torus");
    }

    /** The default column value: kind plus what was set, e.g. fat-tree-4:1, fat-tree-3t-4:1-1:1, dragonfly-a8-p8-h8. */
    static String defaultId(String kind, List<Double> oversubscription, Map<String, Integer> ints, String link,
                            String switchId) {
        StringBuilder sb = new StringBuilder(kind);
        if (ints.containsKey("tiers")) {
            sb.append('-').append(ints.get("tiers")).append('t');
        }
        for (double o : oversubscription) {
            sb.append('-').append(o == Math.rint(o) ? String.valueOf((long) o) : String.valueOf(o)).append(":1");
        }
        for (var e : ints.entrySet()) {
            if (!e.getKey().equals("tiers")) {
                sb.append('-').append(abbreviation(e.getKey())).append(e.getValue());
            }
        }
        if (link != null) {
            sb.append('-').append(link);
        }
        if (switchId != null) {
            sb.append('-').append(switchId);
        }
        return sb.toString();
    }

    private static String abbreviation(String key) {
        return switch (key) {
            case "routers_per_group" -> "a";
            case "endpoints_per_router" -> "p";
            case "global_links" -> "h";
            case "links_per_neighbour" -> "l";
            case "dimensions" -> "d";
            default -> key;
        };
    }

    /** The catalogue link of a scale-out network id: the same id (eth400) or its InfiniBand name (hdr -> ib-hdr). */
    static String linkOf(String scaleOutId, TechnologyCatalog tech) {
        String id = scaleOutId.toLowerCase(Locale.ROOT);
        return tech.links().containsKey(id) ? id : "ib-" + id;
    }

    /**
     * Builds the fabric for a cluster, or null for {@code none}. Throws {@link InvalidInputException} when the
     * parameters cannot make a fabric of that size (the loader turns it into a spec error before anything runs).
     */
    public Topology build(int gpus, int scaleUpDomain, String scaleOutId, TechnologyCatalog tech) {
        Kind k = KINDS.get(kind);
        if (k == null) {
            throw new IllegalStateException("unregistered topology kind " + kind);
        }
        if (kind.equals("none")) {
            return null;
        }
        String linkId = link != null ? link : linkOf(scaleOutId, tech);
        if (!tech.links().containsKey(linkId)) {
            throw new InvalidInputException(InputError.of("topology", id + ".link",
                    "a catalog/links.csv link for scale-out network " + scaleOutId, linkId));
        }
        LinkType l = tech.link(linkId);
        SwitchType sw = null;
        if (switchId != null) {
            sw = tech.switchType(switchId);
        } else {
            for (SwitchType s : tech.switches().values()) {
                if (s.link().id().equals(linkId)) {
                    sw = s;
                    break;
                }
            }
        }
        if (sw == null && !(kind.equals("ring") || kind.equals("torus"))) {
            throw new InvalidInputException(InputError.of("topology", id + ".switch",
                    "a catalog/switches.csv switch with " + linkId + " ports", "none"));
        }
        return k.build(this, gpus, scaleUpDomain, l, sw);
    }
}
