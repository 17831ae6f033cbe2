package io.ridgeline.engine.hardware;

import io.ridgeline.engine.spec.CatalogOverrides;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.spec.Resources;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The bundled accelerator presets, calibration families, scale-out networks and collective curves, loaded once from
 * catalog/*.csv. Unknown names fail with the list of known ones and the closest match. {@link #withOverrides} builds
 * a catalogue whose family and network constants are replaced at parse time (a calibration profile): paths
 * {@code families.<family>.<column>} and {@code scaleout.<id>.<column>} ({@link #OVERRIDABLE_FAMILY_COLUMNS},
 * {@link #OVERRIDABLE_NETWORK_COLUMNS}), values in the file's units.
 */
public final class HardwareCatalog {
    private static final double GIB = 1024.0 * 1024 * 1024;
    private static final double MIB = 1024.0 * 1024;
    private static final double KIB = 1024.0;
    private static final Supplier<HardwareCatalog> BUNDLED = Resources.once(() -> load(CatalogOverrides.NONE));
    /**
     * Families without their own measured curve borrow the nearest generation's shape (assumption; Blackwell Ultra
     * keeps Blackwell's NVLink 5 and switches, so it takes the GB200 curve). The PCIe-only families (Ada, Blackwell
     * RTX) take Ampere's eight-rank curve scaled to their PCIe bandwidth: no PCIe all-reduce sweep is in the project.
     */
    private static final Map<String, String> CURVE_FALLBACK = Map.of("blackwell-ultra", "blackwell", "cdna3", "ampere",
            "cdna4", "ampere", "ada", "ampere", "blackwell-rtx", "ampere");

    /** The families.csv columns a calibration may replace (every per-family constant). */
    public static final List<String> OVERRIDABLE_FAMILY_COLUMNS = List.of("gemm_peak_fraction", "dram_fraction",
            "l2_fraction", "kernel_launch_us", "tile_overhead_cycles", "overlap_exponent", "flash_fraction",
            "gemm_low_precision_fraction", "fused_attention_fraction");
    /** The optional families.csv column a calibration may replace too: empty means the FP8 share. */
    static final String FP4_GEMM_FRACTION = "fp4_gemm_fraction";
    /** The scaleout.csv columns a calibration may replace (the network's model constants, not its price). */
    public static final List<String> OVERRIDABLE_NETWORK_COLUMNS = List.of("latency_us", "efficiency");

    private final Map<String, ChipFamily> families;
    private final Map<String, Chip> chips;
    private final Map<String, ScaleOutNetwork> networks;
    private final Map<String, CollectiveCurve> curves;
    /** Logic node id of each preset's compute die (chips.csv logic_node; energy cross-check only). */
    private final Map<String, String> logicNodes = new LinkedHashMap<>();
    /** Every path {@link #withOverrides} accepts, with its value in force (file units). */
    private final Map<String, Double> overridable = new LinkedHashMap<>();

    private HardwareCatalog(Map<String, ChipFamily> families, Map<String, Chip> chips,
                            Map<String, ScaleOutNetwork> networks, Map<String, CollectiveCurve> curves) {
        this.families = Collections.unmodifiableMap(families);
        this.chips = Collections.unmodifiableMap(chips);
        this.networks = Collections.unmodifiableMap(networks);
        this.curves = Collections.unmodifiableMap(curves);
    }

    /** The catalogue shipped in the engine jar. */
    public static HardwareCatalog bundled() {
        return BUNDLED.get();
    }

    /**
     * The bundled catalogue with some family and network constants replaced (a calibration profile). Built once per
     * profile; the records stay immutable, so evaluation costs exactly what it costs with the bundled values.
     *
     * @throws InvalidInputException for a path that names no family/network column, or a value the record rejects
     */
    public static HardwareCatalog withOverrides(CatalogOverrides overrides) {
        return overrides.isEmpty() ? bundled() : load(overrides);
    }

    private static HardwareCatalog load(CatalogOverrides overrides) {
        Map<String, Double> known = new LinkedHashMap<>();
        Map<String, ChipFamily> families = new LinkedHashMap<>();
        CsvTable ft = Tables.FAMILIES;
        ft.requireColumns("family", "gemm_peak_fraction", "dram_fraction", "l2_fraction", "kernel_launch_us",
                "tile_overhead_cycles", "overlap_exponent", "flash_fraction", "gemm_low_precision_fraction",
                "fused_attention_fraction", "source");
        for (CsvTable.Row r : ft.rows()) {
            String name = r.string("family");
            String prefix = "families." + name + ".";
            Column c = new Column(r, prefix, overrides, known, OVERRIDABLE_FAMILY_COLUMNS);
            double lowPrecision = c.positive("gemm_low_precision_fraction");
            double fp4 = overrides.valueOr(prefix + FP4_GEMM_FRACTION,
                    r.isEmpty(FP4_GEMM_FRACTION) ? lowPrecision : r.positive(FP4_GEMM_FRACTION));
            known.put(prefix + FP4_GEMM_FRACTION, fp4);
            try {
                families.put(name, new ChipFamily(name, c.positive("gemm_peak_fraction"), c.positive("dram_fraction"),
                        c.positive("l2_fraction"), c.number("kernel_launch_us") * 1e-6, c.number("tile_overhead_cycles"),
                        c.positive("overlap_exponent"), c.positive("flash_fraction"), lowPrecision,
                        c.positive("fused_attention_fraction"), r.string("source"), fp4,
                        r.isEmpty("exp_per_clock_per_sm") ? ChipFamily.DEFAULT_EXP_PER_CLOCK_PER_SM
                                : r.positive("exp_per_clock_per_sm"),
                        r.isEmpty("attention_tile_overhead_keys") ? ChipFamily.DEFAULT_ATTENTION_TILE_OVERHEAD_KEYS
                                : r.number("attention_tile_overhead_keys")));
            } catch (IllegalArgumentException e) {
                throw c.rejected(e);
            }
        }
        overrides.requireKnown("families.", known.keySet());
        Map<String, Chip> chips = new LinkedHashMap<>();
        Map<String, String> logicNodesRead = new LinkedHashMap<>();
        CsvTable ct = Tables.CHIPS;
        ct.requireColumns("id", "name", "family", "memory_type", "memory_gib", "memory_bw_tbyte_s", "fp32_tflops",
                "tf32_tflops", "bf16_tflops", "fp16_tflops", "fp8_tflops", "fp4_tflops", "sm_count", "clock_mhz",
                "l2_mb", "l2_bw_tbyte_s", "smem_kib_per_sm", "scale_up_link", "scale_up_gbyte_s", "scale_up_domain",
                "tdp_w", "price_usd", "source");
        for (CsvTable.Row r : ct.rows()) {
            ChipFamily family = r.lookup("family", families);
            if (!r.isEmpty("gemm_peak_fraction") || !r.isEmpty("gemm_low_precision_fraction")) {
                // The chip's own measured GEMM efficiency where it differs from its family's (chips.csv comment).
                family = family.withGemmFractions(r.numberOr("gemm_peak_fraction", family.gemmPeakFraction()),
                        r.numberOr("gemm_low_precision_fraction", family.gemmLowPrecisionFraction()));
            }
            double[] peaks = new double[Precision.values().length];
            peaks[Precision.FP32.ordinal()] = r.numberOr("fp32_tflops", 0) * 1e12;
            peaks[Precision.TF32.ordinal()] = r.numberOr("tf32_tflops", 0) * 1e12;
            peaks[Precision.BF16.ordinal()] = r.numberOr("bf16_tflops", 0) * 1e12;
            peaks[Precision.FP16.ordinal()] = r.numberOr("fp16_tflops", 0) * 1e12;
            peaks[Precision.FP8.ordinal()] = r.numberOr("fp8_tflops", 0) * 1e12;
            peaks[Precision.FP4.ordinal()] = r.numberOr("fp4_tflops", 0) * 1e12;
            Chip chip = new Chip(r.string("id"), r.string("name"), family, r.string("memory_type"),
                    r.positive("memory_gib") * GIB, r.positive("memory_bw_tbyte_s") * 1e12, peaks,
                    (int) r.integer("sm_count"), r.positive("clock_mhz") * 1e6, r.positive("l2_mb") * MIB,
                    r.positive("l2_bw_tbyte_s") * 1e12, r.positive("smem_kib_per_sm") * KIB, r.string("scale_up_link"),
                    r.positive("scale_up_gbyte_s") * 1e9, (int) r.integer("scale_up_domain"), r.positive("tdp_w"),
                    r.numberOr("price_usd", 0), r.string("source"));
            chips.put(chip.id(), chip);
            logicNodesRead.put(chip.id(), r.stringOr("logic_node", ""));
        }
        Map<String, ScaleOutNetwork> networks = new LinkedHashMap<>();
        CsvTable nt = Tables.SCALEOUT;
        nt.requireColumns("id", "name", "gbit_s_per_port", "ports_per_gpu", "latency_us", "efficiency", "pj_per_bit",
                "usd_per_port", "source");
        for (CsvTable.Row r : nt.rows()) {
            String id = r.string("id");
            Column c = new Column(r, "scaleout." + id + ".", overrides, known, OVERRIDABLE_NETWORK_COLUMNS);
            double bytesPerSecond = r.positive("gbit_s_per_port") * 1e9 / 8 * r.positive("ports_per_gpu");
            try {
                networks.put(id, new ScaleOutNetwork(id, r.string("name"), bytesPerSecond,
                        c.number("latency_us") * 1e-6, c.positive("efficiency"), r.number("pj_per_bit") * 1e-12,
                        r.number("usd_per_port"), r.string("source")));
            } catch (IllegalArgumentException e) {
                throw c.rejected(e);
            }
        }
        overrides.requireKnown("scaleout.", known.keySet());
        // Curves are measured, never overridden: an overridden catalogue shares the bundled ones.
        Map<String, CollectiveCurve> curves = overrides.isEmpty() ? loadCurves(chips)
                : new LinkedHashMap<>(bundled().curves);
        for (String fam : families.keySet()) {
            if (!curves.containsKey(fam)) {
                String fallback = CURVE_FALLBACK.get(fam);
                if (fallback == null || !curves.containsKey(fallback)) {
                    throw new IllegalStateException("no collective curve for family " + fam);
                }
                curves.put(fam, curves.get(fallback));
            }
        }
        HardwareCatalog catalog = new HardwareCatalog(families, chips, networks, curves);
        catalog.logicNodes.putAll(logicNodesRead);
        catalog.overridable.putAll(known);
        return catalog;
    }

    /** The bundled files, parsed once (catalogues with overrides are rebuilt from them, not re-read). */
    private static final class Tables {
        static final CsvTable FAMILIES = CsvTable.readResource("/catalog/families.csv");
        static final CsvTable CHIPS = CsvTable.readResource("/catalog/chips.csv");
        static final CsvTable SCALEOUT = CsvTable.readResource("/catalog/scaleout.csv");
    }

    /** Reads one row's overridable columns: the override when the profile has one, else the file's value. */
    private record Column(CsvTable.Row row, String prefix, CatalogOverrides overrides, Map<String, Double> known,
                          List<String> overridable) {
        Column {
            for (String col : overridable) {
                known.put(prefix + col, overrides.valueOr(prefix + col, row.number(col)));
            }
        }

        double number(String column) {
            return overrides.valueOr(prefix + column, row.number(column));
        }

        double positive(String column) {
            return overrides.has(prefix + column) ? overrides.valueOr(prefix + column, 0) : row.positive(column);
        }

        /** A record constructor refused the row: blame the overrides when there are any, else the file. */
        InvalidInputException rejected(IllegalArgumentException e) {
            for (String col : overridable) {
                if (overrides.has(prefix + col)) {
                    return new InvalidInputException(InputError.of(overrides.source(), prefix + col,
                            "a value the catalogue accepts (" + e.getMessage() + ")",
                            Double.toString(overrides.valueOr(prefix + col, Double.NaN))));
                }
            }
            return row.error(overridable.get(0), "valid constants", e.getMessage());
        }
    }

    private static Map<String, CollectiveCurve> loadCurves(Map<String, Chip> chips) {
        CsvTable t = CsvTable.readResource("/catalog/nccl_allreduce_8gpu.csv");
        t.requireColumns("family", "reference_chip", "ranks", "bytes", "busbw_gbyte_s", "source_id");
        Map<String, List<double[]>> points = new LinkedHashMap<>();
        Map<String, String> reference = new LinkedHashMap<>();
        Map<String, Integer> ranks = new LinkedHashMap<>();
        for (CsvTable.Row r : t.rows()) {
            String fam = r.string("family");
            points.computeIfAbsent(fam, k -> new ArrayList<>()).add(new double[]{r.positive("bytes"),
                    r.positive("busbw_gbyte_s") * 1e9});
            reference.put(fam, r.string("reference_chip"));
            ranks.put(fam, (int) r.positive("ranks"));
        }
        Map<String, CollectiveCurve> curves = new LinkedHashMap<>();
        for (Map.Entry<String, List<double[]>> e : points.entrySet()) {
            List<double[]> p = e.getValue();
            double[] bytes = new double[p.size()];
            double[] busbw = new double[p.size()];
            for (int i = 0; i < p.size(); i++) {
                bytes[i] = p.get(i)[0];
                busbw[i] = p.get(i)[1];
            }
            Chip ref = chips.get(reference.get(e.getKey()));
            if (ref == null) {
                throw new IllegalStateException("curve reference chip unknown: " + reference.get(e.getKey()));
            }
            curves.put(e.getKey(), new CollectiveCurve(e.getKey(), bytes, busbw, ref.scaleUpBytesPerSecond(),
                    ranks.get(e.getKey())));
        }
        return curves;
    }

    /**
     * The catalogue paths a calibration may replace ({@code families.<family>.<column>}, {@code scaleout.<id>.<column>})
     * with the values in force, in the files' units (kernel_launch_us in microseconds...).
     */
    public Map<String, Double> overridableValues() {
        return Collections.unmodifiableMap(overridable);
    }

    /** A preset by id, or a clear error listing the known ones. */
    public Chip chip(String id) {
        return Names.lookup(chips, id, "chip catalogue", "gpu");
    }

    /** Logic node id (catalog/logic_nodes.csv) of a preset's compute die; "" when the catalogue does not say. */
    public String logicNode(String chipId) {
        return logicNodes.getOrDefault(chipId, "");
    }

    public boolean hasChip(String id) {
        return chips.containsKey(id);
    }

    public Map<String, Chip> chips() {
        return chips;
    }

    public ChipFamily family(String name) {
        return Names.lookup(families, name, "family catalogue", "family");
    }

    public Map<String, ChipFamily> families() {
        return families;
    }

    public ScaleOutNetwork network(String id) {
        return Names.lookup(networks, id, "network catalogue", "scale_out");
    }

    public Map<String, ScaleOutNetwork> networks() {
        return networks;
    }

    /** The scale-up collective curve of a chip's family. */
    public CollectiveCurve curve(Chip chip) {
        CollectiveCurve c = curves.get(chip.family().name());
        if (c == null) {
            throw new IllegalStateException("no collective curve for family " + chip.family().name());
        }
        return c;
    }

    /** One scale-up collective step of a chip's default node: from its family's measured curve. */
    public static double defaultScaleUpStepLatencySeconds(Chip chip) {
        return bundled().curve(chip).stepLatencySeconds();
    }

    /** The scale-out network a preset ships with in its reference server (HDR for A100, NDR for Hopper...). */
    public ScaleOutNetwork defaultNetwork(Chip chip) {
        return switch (chip.family().name()) {
            case "ampere" -> network("hdr");
            case "hopper", "ada", "cdna3" -> network("ndr");
            default -> network("xdr");
        };
    }
}
