package io.ridgeline.engine.sweep;

import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.ListNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code hardware} section: catalogue presets and technology-derived designs. Each {@code derived} entry (every
 * key may list values) expands into designs, built once here: designs that cannot exist (DRAM stacks that do not fit
 * the shoreline, a power budget below static + I/O power...) are listed, not fatal, because finding them is part of
 * exploring a design space.
 */
final class HardwareReader {
    /** What the section gives: chip ids (presets, then buildable designs), the designs, and the unbuildable ones. */
    record Hardware(List<String> chips, List<DerivedDesign> designs, List<String> unbuildable) {
    }

    private final SweepReader r;

    HardwareReader(SweepReader r) {
        this.r = r;
    }

    Hardware read(SpecNode node) {
        List<String> chips = new ArrayList<>();
        List<DerivedDesign> designs = new ArrayList<>();
        List<String> unbuildable = new ArrayList<>();
        MapNode hw = r.map(node, "hardware");
        if (hw != null) {
            r.knownKeys(hw, "hardware", "hardware");
            if (hw.get("presets") == null && hw.get("derived") == null) {
                r.error(hw, "hardware.presets", "a list of chip ids (or hardware.derived designs)",
                        "neither 'presets' nor 'derived'");
            }
            if (hw.get("presets") != null) {
                chips.addAll(r.list(hw.get("presets"), "hardware.presets",
                        (n, p) -> r.catalogueName(n, p, r.hardware.chips().keySet())));
            }
            if (hw.get("derived") != null) {
                derived(hw.get("derived"), designs, unbuildable);
                for (DerivedDesign d : designs) {
                    chips.add(d.id());
                }
                if (chips.isEmpty() && !unbuildable.isEmpty()) {
                    r.error(hw.get("derived"), "hardware.derived", "at least one buildable design",
                            "none of " + unbuildable.size() + ": " + unbuildable.get(0));
                }
            }
        }
        return new Hardware(chips, designs, unbuildable);
    }

    private void derived(SpecNode node, List<DerivedDesign> designs, List<String> unbuildable) {
        ListNode l = r.listNode(node, "hardware.derived");
        if (l == null) {
            return;
        }
        String section = "hardware.derived";
        for (int i = 0; i < l.items().size(); i++) {
            String path = "hardware.derived[" + i + "]";
            MapNode m = r.map(l.items().get(i), path);
            if (m == null) {
                continue;
            }
            r.knownKeys(m, path, section);
            int before = r.errors().size();
            SpecNode nameNode = r.required(m, path, "name", "a design name (prefix of the chip ids)");
            String name = nameNode == null ? null : r.name(nameNode, path + ".name", SweepReader.NAME_RULE);
            List<String> archs = r.list(r.value(m, section, "architecture"), path + ".architecture",
                    (n, p) -> r.catalogueName(n, p, r.technology.architectures().keySet()));
            List<String> nodes = r.list(r.required(m, path, "node", "a list of logic nodes"), path + ".node",
                    (n, p) -> r.catalogueName(n, p, r.technology.nodes().keySet()));
            List<Integer> dies = r.list(r.value(m, section, "dies"), path + ".dies",
                    (n, p) -> r.integer(n, p, 1, 8, "an integer in [1, 8]"));
            List<Double> areas = r.list(r.required(m, path, "die_area_mm2", "a list of die areas in mm2"),
                    path + ".die_area_mm2", (n, p) -> r.number(n, p, 0, 858, false));
            List<Double> watts = r.list(r.required(m, path, "power_w", "a list of power budgets in W"),
                    path + ".power_w", (n, p) -> r.number(n, p, 0, 1e5, false));
            List<Double> l2 = r.list(r.value(m, section, "l2_mib"), path + ".l2_mib",
                    (n, p) -> r.number(n, p, 0, 1e5, false));
            List<String> drams = r.list(r.required(m, path, "dram", "a list of DRAM types"), path + ".dram",
                    (n, p) -> r.catalogueName(n, p, r.technology.drams().keySet()));
            List<Integer> stacks = r.list(r.required(m, path, "stacks", "a list of DRAM stack counts"),
                    path + ".stacks", (n, p) -> r.integer(n, p, 1, 64, "an integer in [1, 64]"));
            String link = r.catalogueName(r.value(m, section, "scale_up_link"), path + ".scale_up_link",
                    r.technology.links().keySet());
            Integer links = r.integer(r.value(m, section, "scale_up_links"), path + ".scale_up_links", 1, 256,
                    "an integer in [1, 256]");
            Integer domain = r.integer(r.value(m, section, "scale_up_domain"), path + ".scale_up_domain", 1,
                    SweepReader.MAX_PARALLEL, "an integer in [1, 65536]");
            if (r.errors().size() > before) {
                continue;
            }
            for (String arch : archs) {
                for (String nd : nodes) {
                    for (int d : dies) {
                        for (double a : areas) {
                            for (double w : watts) {
                                for (double l2Mib : l2) {
                                    for (String dr : drams) {
                                        for (int st : stacks) {
                                            DerivedDesign design = new DerivedDesign(DerivedDesign.id(name, nd, d, a,
                                                    w, dr, st, arch), arch, nd, d, a, w, l2Mib, dr, st, link, links,
                                                    domain);
                                            build(design, designs, unbuildable);
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    private void build(DerivedDesign design, List<DerivedDesign> designs, List<String> unbuildable) {
        try {
            design.build(r.technology);
            designs.add(design);
        } catch (InvalidInputException e) {
            unbuildable.add(design.id() + ": " + e.errors().get(0).fieldPath() + ": expected "
                    + e.errors().get(0).expected() + ", found " + e.errors().get(0).found());
        }
    }
}
