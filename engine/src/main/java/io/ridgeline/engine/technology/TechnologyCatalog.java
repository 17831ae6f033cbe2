package io.ridgeline.engine.technology;

import io.ridgeline.engine.hardware.ChipFamily;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.spec.Resources;

import java.util.Map;
import java.util.function.Supplier;

/**
 * The bundled technology catalogues (catalog/logic_nodes.csv, dram_types.csv, links.csv, switches.csv,
 * architectures.csv), loaded once. Unknown names fail with the known ones and the closest match.
 */
public final class TechnologyCatalog {
    private static final double GIB = 1024.0 * 1024 * 1024;
    private static final double KIB = 1024.0;
    private static final Supplier<TechnologyCatalog> BUNDLED = Resources.once(() -> new TechnologyCatalog(HardwareCatalog.bundled()));

    private final Map<String, LogicNode> nodes;
    private final Map<String, DramType> drams;
    private final Map<String, LinkType> links;
    private final Map<String, SwitchType> switches;
    private final Map<String, Architecture> architectures;

    private TechnologyCatalog(HardwareCatalog hardware) {
        nodes = CsvTable.byId("/catalog/logic_nodes.csv", TechnologyCatalog::node, "id", "node_nm", "steps_from_7nm",
                "logic_area_scale", "sram_mm2_per_mib", "bf16_pj_per_flop", "v_nominal", "v_threshold", "v_min",
                "v_max", "nominal_ghz", "alpha", "wafer_usd", "defect_per_cm2", "source");
        drams = CsvTable.byId("/catalog/dram_types.csv", TechnologyCatalog::dram, "id", "kind", "bus_bits",
                "pin_gbit_s", "gib_per_stack", "pj_per_bit", "phy_mm2", "shoreline_mm", "on_package", "footprint_mm2",
                "usd_per_gib", "source");
        links = CsvTable.byId("/catalog/links.csv", TechnologyCatalog::link, "id", "name", "scale_up", "gbyte_s",
                "latency_ns", "pj_per_bit", "phy_mm2", "usd_per_port", "optic_usd", "cable_usd", "source");
        switches = CsvTable.byId("/catalog/switches.csv", r -> switchType(r, links), "id", "name", "link", "radix",
                "latency_ns", "power_w", "usd", "source");
        architectures = CsvTable.byId("/catalog/architectures.csv", r -> architecture(r, hardware, nodes), "id",
                "family", "reference_node", "bf16_flops_per_cycle_per_unit", "unit_mm2_at_reference_node",
                "smem_kib_per_unit", "l2_bytes_per_cycle_per_unit", "fp32_ratio", "tf32_ratio", "fp16_ratio",
                "fp8_ratio", "fp4_ratio", "energy_scale", "source");
    }

    /** The catalogues shipped in the engine jar. */
    public static TechnologyCatalog bundled() {
        return BUNDLED.get();
    }

    private static LogicNode node(CsvTable.Row r) {
        double vt = r.positive("v_threshold");
        double vmin = r.positive("v_min");
        double vnom = r.positive("v_nominal");
        double vmax = r.positive("v_max");
        if (!(vt < vmin && vmin <= vnom && vnom <= vmax)) {
            throw r.error("v_nominal", "v_threshold < v_min <= v_nominal <= v_max",
                    vt + " / " + vmin + " / " + vnom + " / " + vmax);
        }
        return new LogicNode(r.string("id"), r.positive("node_nm"), (int) r.integer("steps_from_7nm"),
                r.positive("logic_area_scale"), r.positive("sram_mm2_per_mib"), r.positive("bf16_pj_per_flop") * 1e-12,
                vnom, vt, vmin, vmax, r.positive("nominal_ghz") * 1e9, r.positive("alpha"), r.positive("wafer_usd"),
                r.number("defect_per_cm2"), r.string("source"));
    }

    private static DramType dram(CsvTable.Row r) {
        return new DramType(r.string("id"), r.string("kind"), (int) r.integer("bus_bits"), r.positive("pin_gbit_s"),
                r.positive("gib_per_stack") * GIB, r.positive("pj_per_bit") * 1e-12, r.number("phy_mm2"),
                r.positive("shoreline_mm"), bool(r, "on_package"), r.number("footprint_mm2"), r.number("usd_per_gib"),
                r.string("source"));
    }

    private static LinkType link(CsvTable.Row r) {
        return new LinkType(r.string("id"), r.string("name"), bool(r, "scale_up"), r.positive("gbyte_s") * 1e9,
                r.number("latency_ns") * 1e-9, r.number("pj_per_bit") * 1e-12, r.number("phy_mm2"),
                r.number("usd_per_port"), r.number("optic_usd"), r.number("cable_usd"), r.string("source"));
    }

    private static SwitchType switchType(CsvTable.Row r, Map<String, LinkType> links) {
        return new SwitchType(r.string("id"), r.string("name"), r.lookup("link", links), (int) r.integer("radix"),
                r.number("latency_ns") * 1e-9, r.number("power_w"), r.number("usd"), r.string("source"));
    }

    private static Architecture architecture(CsvTable.Row r, HardwareCatalog hardware, Map<String, LogicNode> nodes) {
        ChipFamily family = r.lookup("family", hardware.families());
        LogicNode ref = r.lookup("reference_node", nodes);
        double[] ratio = new double[Precision.values().length];
        ratio[Precision.FP32.ordinal()] = r.number("fp32_ratio");
        ratio[Precision.TF32.ordinal()] = r.number("tf32_ratio");
        ratio[Precision.BF16.ordinal()] = 1.0;
        ratio[Precision.FP16.ordinal()] = r.number("fp16_ratio");
        ratio[Precision.FP8.ordinal()] = r.number("fp8_ratio");
        ratio[Precision.FP4.ordinal()] = r.number("fp4_ratio");
        return new Architecture(r.string("id"), family, ref, r.positive("bf16_flops_per_cycle_per_unit"),
                r.positive("unit_mm2_at_reference_node"), r.positive("smem_kib_per_unit") * KIB,
                r.positive("l2_bytes_per_cycle_per_unit"), ratio, r.positive("energy_scale"), r.string("source"));
    }

    private static boolean bool(CsvTable.Row r, String column) {
        String v = r.string(column);
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw r.error(column, "true or false", "'" + v + "'");
    }

    public LogicNode node(String id) {
        return Names.lookup(nodes, id, "logic node catalogue", "node");
    }

    public DramType dram(String id) {
        return Names.lookup(drams, id, "DRAM catalogue", "dram");
    }

    public LinkType link(String id) {
        return Names.lookup(links, id, "link catalogue", "link");
    }

    public SwitchType switchType(String id) {
        return Names.lookup(switches, id, "switch catalogue", "switch");
    }

    public Architecture architecture(String id) {
        return Names.lookup(architectures, id, "architecture catalogue", "architecture");
    }

    public Map<String, LogicNode> nodes() {
        return nodes;
    }

    public Map<String, DramType> drams() {
        return drams;
    }

    public Map<String, LinkType> links() {
        return links;
    }

    public Map<String, SwitchType> switches() {
        return switches;
    }

    public Map<String, Architecture> architectures() {
        return architectures;
    }
}
