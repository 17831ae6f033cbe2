package io.ridgeline.engine.sweep;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.spec.SpecNode.Scalar;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code network.topology} entry: a kind name ({@code fat-tree}) or a mapping with {@code kind} and that kind's
 * parameters (the registry in {@link TopologyAxis} says which keys each kind takes).
 */
final class TopologyReader {
    /** Every key any kind takes, for "belongs to another kind" messages. */
    static final List<String> KEYS = List.of("kind", "name", "tiers", "oversubscription", "link", "switch",
            "routers_per_group", "endpoints_per_router", "global_links", "links_per_neighbour", "dimensions");
    private static final List<String> INTEGERS = List.of("tiers", "routers_per_group", "endpoints_per_router",
            "global_links", "links_per_neighbour", "dimensions");

    private final SweepReader r;

    TopologyReader(SweepReader r) {
        this.r = r;
    }

    TopologyAxis read(SpecNode n, String path) {
        if (n instanceof Scalar) {
            String kind = r.catalogueName(n, path, TopologyAxis.kindNames());
            return kind == null ? null : kind.equals("none") ? TopologyAxis.NONE
                    : new TopologyAxis(kind, kind, null, null, List.of(), Map.of());
        }
        MapNode m = r.map(n, path);
        if (m == null) {
            return null;
        }
        int before = r.errors().size();
        SpecNode kindNode = r.required(m, path, "kind", "a topology kind: one of " + TopologyAxis.kindNames());
        String kind = kindNode == null ? null : r.catalogueName(kindNode, path + ".kind", TopologyAxis.kindNames());
        if (kind == null) {
            r.keys(m, path, KEYS);
            return null;
        }
        List<String> allowed = new ArrayList<>(List.of("kind", "name"));
        allowed.addAll(TopologyAxis.KINDS.get(kind).keys());
        for (String k : m.values().keySet()) {
            if (allowed.contains(k)) {
                continue;
            }
            String expected = KEYS.contains(k) ? "a key of a " + kind + " topology: one of "
                    + allowed.stream().sorted().toList() + " ('" + k + "' belongs to another kind)"
                    : "a known key: " + Names.expectedOneOf(k, allowed);
            r.errors().add(new InputError(r.source(), m.keyLine(k), m.keyColumn(k), path + "." + k, expected,
                    "an unknown key"));
        }
        String name = m.get("name") == null ? null : r.name(m.get("name"), path + ".name", SweepReader.NAME_RULE);
        List<Double> over = oversubscription(m, path, kind, allowed);
        Map<String, Integer> ints = new LinkedHashMap<>();
        for (String k : INTEGERS) {
            if (m.get(k) == null || !allowed.contains(k)) {
                continue;
            }
            Integer v = k.equals("tiers") || k.equals("dimensions")
                    ? r.integer(m.get(k), path + "." + k, 2, 3, "2 or 3")
                    : r.integer(m.get(k), path + "." + k, 1, 1024, "an integer in [1, 1024]");
            if (v != null) {
                ints.put(k, v);
            }
        }
        if (ints.containsKey("tiers") && over.size() > ints.get("tiers") - 1) {
            r.error(m.get("oversubscription"), path + ".oversubscription", "at most tiers - 1 = "
                    + (ints.get("tiers") - 1) + " ratios", over.size() + " ratios");
        }
        String link = m.get("link") == null || !allowed.contains("link") ? null
                : r.catalogueName(m.get("link"), path + ".link", r.technology.links().keySet());
        String sw = m.get("switch") == null || !allowed.contains("switch") ? null
                : r.catalogueName(m.get("switch"), path + ".switch", r.technology.switches().keySet());
        if (r.errors().size() > before) {
            return null;
        }
        String id = name != null ? name : TopologyAxis.defaultId(kind, over, ints, link, sw);
        return new TopologyAxis(id, kind, link, sw, List.copyOf(over), Map.copyOf(ints));
    }

    private List<Double> oversubscription(MapNode m, String path, String kind, List<String> allowed) {
        if (m.get("oversubscription") == null || !allowed.contains("oversubscription")) {
            return List.of();
        }
        List<Double> over = r.list(m.get("oversubscription"), path + ".oversubscription",
                (x, p) -> r.number(x, p, 1, 1024, true));
        if (kind.equals("rail-optimized") && over.size() > 1) {
            r.error(m.get("oversubscription"), path + ".oversubscription", "one spine ratio (down:up)",
                    over.size() + " ratios");
        } else if (kind.equals("fat-tree") && over.size() > 2) {
            r.error(m.get("oversubscription"), path + ".oversubscription", "at most 2 ratios (leaf, "
                    + "aggregation: a fat-tree has at most 3 tiers)", over.size() + " ratios");
        }
        return over;
    }
}
