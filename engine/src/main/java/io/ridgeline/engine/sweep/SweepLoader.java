package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.pareto.Goal;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecReader;
import io.ridgeline.engine.spec.SpecTreeReader;
import io.ridgeline.engine.spec.Utf8Text;
import io.ridgeline.engine.technology.TechnologyCatalog;
import io.ridgeline.engine.spec.SpecNode.ListNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.spec.SpecNode.Scalar;
import io.ridgeline.engine.sweep.SweepSpec.Bound;
import io.ridgeline.engine.sweep.SweepSpec.ExplicitPlan;
import io.ridgeline.engine.sweep.SweepSpec.Objective;
import io.ridgeline.engine.sweep.SweepSpec.Parallelism;
import io.ridgeline.engine.sweep.SweepSpec.Workload;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * Reads a sweep file into a {@link SweepSpec}, collecting every problem before failing: each error names the file,
 * line and column, the field path, what was expected and what was found, with "did you mean" for misspelt keys and
 * catalogue names. Defaults are documented in docs/SWEEPS.md and sweeps/sweep.schema.json.
 */
public final class SweepLoader {
    static final List<String> TOP_KEYS = List.of("name", "description", "models", "phases", "hardware", "network",
            "cluster", "parallelism", "constraints", "objectives", "frontier", "output", "cost");
    static final List<String> PHASE_KEYS = List.of("phase", "seq_len", "global_batch");
    static final List<String> INFERENCE_PHASE_KEYS = List.of("phase", "batch", "input_tokens", "output_tokens",
            "concurrency", "weight_precision", "activation_precision", "kv_cache_precision", "cuda_graphs");
    static final List<String> TOPOLOGY_KEYS = List.of("kind", "name", "tiers", "oversubscription", "link", "switch",
            "routers_per_group", "endpoints_per_router", "global_links", "links_per_neighbour", "dimensions");
    static final List<String> COST_KEYS = List.of("server_overhead_factor", "interconnect_fraction",
            "amortization_years", "server_power_factor", "load_fraction", "pue", "usd_per_kwh",
            "availability_fraction", "tokens");
    static final List<String> HARDWARE_KEYS = List.of("presets", "derived");
    static final List<String> DERIVED_KEYS = List.of("name", "architecture", "node", "dies", "die_area_mm2",
            "power_w", "l2_mib", "dram", "stacks", "scale_up_link", "scale_up_links", "scale_up_domain");
    static final List<String> NETWORK_KEYS = List.of("scale_out", "scale_out_gbps", "scale_up_domain", "topology");
    static final List<String> CLUSTER_KEYS = List.of("gpu_count");
    static final List<String> SEARCH_LISTS = List.of("tp", "pp", "cp", "ep", "vpp", "micro_batch", "zero", "sp",
            "recompute", "precision");
    static final List<String> PARALLELISM_KEYS = List.of("mode", "keep", "tp", "pp", "cp", "ep", "vpp",
            "micro_batch", "zero", "sp", "recompute", "precision", "overlap_grad", "flash_attention", "plans");
    static final List<String> PLAN_KEYS = List.of("tp", "pp", "dp", "cp", "ep", "sp", "vpp", "zero", "micro_batch",
            "recompute", "precision");
    static final List<String> CONSTRAINT_KEYS = List.of("max", "min");
    static final List<String> OBJECTIVE_KEYS = List.of("max", "min");
    static final List<String> FRONTIER_KEYS = List.of("group_by");
    static final List<String> OUTPUT_KEYS = List.of("points");
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9._-]{0,63}");
    private static final int MAX_PARALLEL = 65_536;
    private static final int MAX_GPUS = 16_777_216;

    private final ModelCatalog modelCatalog;
    private final HardwareCatalog hardwareCatalog;

    public SweepLoader(ModelCatalog modelCatalog, HardwareCatalog hardwareCatalog) {
        this.modelCatalog = modelCatalog;
        this.hardwareCatalog = hardwareCatalog;
    }

    /** Loads a sweep against the bundled catalogues. */
    public static SweepSpec load(Path file) {
        return new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled()).read(file);
    }

    public SweepSpec read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new InvalidInputException(InputError.of(file.toString(), "(file)", "an existing sweep file",
                    "no such file"));
        } catch (IOException e) {
            throw new InvalidInputException(InputError.of(file.toString(), "(file)", "a readable sweep file",
                    e.toString()));
        }
        return parse(file.toString(), Utf8Text.decode(file.toString(), bytes), sha256(bytes));
    }

    public SweepSpec parse(String source, String text) {
        return parse(source, text, sha256(text.getBytes(StandardCharsets.UTF_8)));
    }

    private SweepSpec parse(String source, String text, String sha) {
        SpecNode root = SpecTreeReader.parse(source, text);
        Ctx c = new Ctx(source);
        SweepSpec spec = c.sweep(root, sha);
        c.throwIfErrors();
        return spec;
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is always available", e);
        }
    }

    /** One validation pass: every reader records errors and returns a placeholder, so later fields are still checked. */
    private final class Ctx extends SpecReader {
        /** Phases of the sweep's workloads and whether cost.tokens is set: which columns every row fills. */
        final java.util.EnumSet<SweepSpec.Phase> phases = java.util.EnumSet.noneOf(SweepSpec.Phase.class);
        boolean tokensBudget;

        Ctx(String source) {
            super(source);
        }

        SweepSpec sweep(SpecNode rootNode, String sha) {
            MapNode root = map(rootNode, "(document)");
            if (root == null) {
                return null;
            }

            keys(root, "", TOP_KEYS);
            String name = null;
            SpecNode nameNode = required(root, "", "name", "a sweep name");
            if (nameNode != null) {
                name = string(nameNode, "name");
                if (name != null && !NAME.matcher(name).matches()) {
                    error(nameNode, "name", "a lower-case name of letters, digits, '.', '_' or '-' (it becomes part "
                            + "of run ids)", "'" + name + "'");
                }
            }
            String description = root.get("description") == null ? "" : string(root.get("description"),
                    "description");

            List<String> models = list(required(root, "", "models", "a list of model names"), "models",
                    (n, p) -> catalogueName(n, p, modelCatalog.models().keySet()));
            List<ModelSpec> resolved = new ArrayList<>();
            for (String m : models) {
                if (m != null && modelCatalog.has(m)) {
                    resolved.add(modelCatalog.model(m));
                }
            }
            List<Workload> workloads = workloads(required(root, "", "phases", "a list of phases"), resolved);

            List<String> chips = new ArrayList<>();
            List<DerivedDesign> designs = new ArrayList<>();
            List<String> unbuildable = new ArrayList<>();
            MapNode hw = map(required(root, "", "hardware", "a mapping with presets and/or derived"), "hardware");
            if (hw != null) {
                keys(hw, "hardware", HARDWARE_KEYS);
                if (hw.get("presets") == null && hw.get("derived") == null) {
                    error(hw, "hardware.presets", "a list of chip ids (or hardware.derived designs)",
                            "neither 'presets' nor 'derived'");
                }
                if (hw.get("presets") != null) {
                    chips.addAll(list(hw.get("presets"), "hardware.presets",
                            (n, p) -> catalogueName(n, p, hardwareCatalog.chips().keySet())));
                }
                if (hw.get("derived") != null) {
                    derived(hw.get("derived"), designs, unbuildable);
                    for (DerivedDesign d : designs) {
                        chips.add(d.id());
                    }
                    if (chips.isEmpty() && !unbuildable.isEmpty()) {
                        error(hw.get("derived"), "hardware.derived", "at least one buildable design",
                                "none of " + unbuildable.size() + ": " + unbuildable.get(0));
                    }
                }
            }

            List<String> scaleOuts = List.of(SweepSpec.DEFAULT);
            List<Double> gbps = List.of(0.0);
            List<Integer> domains = List.of(0);
            MapNode net = root.get("network") == null ? null : map(root.get("network"), "network");
            if (net != null) {
                keys(net, "network", NETWORK_KEYS);
                List<String> ids = new ArrayList<>(hardwareCatalog.networks().keySet());
                ids.add(SweepSpec.DEFAULT);
                if (net.get("scale_out") != null) {
                    scaleOuts = list(net.get("scale_out"), "network.scale_out", (n, p) -> catalogueName(n, p, ids));
                }
                if (net.get("scale_out_gbps") != null) {
                    gbps = list(net.get("scale_out_gbps"), "network.scale_out_gbps",
                            (n, p) -> number(n, p, 0, 1e6, false));
                }
                if (net.get("scale_up_domain") != null) {
                    domains = list(net.get("scale_up_domain"), "network.scale_up_domain", (n, p) ->
                            n instanceof Scalar s && s.kind() == Scalar.Kind.STRING && s.text().equals(SweepSpec.DEFAULT)
                                    ? Integer.valueOf(0) : integer(n, p, 1, MAX_PARALLEL, "an integer in [1, 65536] or "
                                    + "'default'"));
                }
            }
            List<TopologyAxis> topologies = List.of(TopologyAxis.NONE);
            if (net != null && net.get("topology") != null) {
                topologies = list(net.get("topology"), "network.topology", this::topology);
                // A fabric's links set the scale-out rate of the traffic that crosses it: a per-GPU override would be
                // ignored there, so say so instead of running a sweep whose axis does nothing.
                if (net.get("scale_out_gbps") != null) {
                    for (TopologyAxis t : topologies) {
                        if (t != null && !t.kind().equals(TopologyAxis.NONE.kind())) {
                            error(net.get("scale_out_gbps"), "network.scale_out_gbps", "no per-GPU rate override "
                                    + "when network.topology names a fabric (its links set the scale-out rate)",
                                    "an override beside topology '" + t.id() + "'");
                            break;
                        }
                    }
                }
            }

            List<Integer> gpus = List.of();
            MapNode cluster = map(required(root, "", "cluster", "a mapping with gpu_count"), "cluster");
            if (cluster != null) {
                keys(cluster, "cluster", CLUSTER_KEYS);
                gpus = list(required(cluster, "cluster", "gpu_count", "a list of GPU counts"), "cluster.gpu_count",
                        (n, p) -> integer(n, p, 1, MAX_GPUS, "an integer in [1, " + MAX_GPUS + "]"));
            }

            Parallelism par = parallelism(required(root, "", "parallelism", "a mapping (mode: search or explicit)"));
            CostSpec cost = cost(root.get("cost"));
            for (Workload w : workloads) {
                phases.add(w.phase());
            }
            tokensBudget = cost.tokens() > 0;
            List<Bound> bounds = constraints(root.get("constraints"));
            List<Objective> objectives = objectives(root.get("objectives"));
            List<GroupColumn> groupBy = List.of(GroupColumn.MODEL, GroupColumn.PHASE, GroupColumn.SEQ_LEN,
                    GroupColumn.GLOBAL_BATCH);
            MapNode frontier = root.get("frontier") == null ? null : map(root.get("frontier"), "frontier");
            if (frontier != null) {
                keys(frontier, "frontier", FRONTIER_KEYS);
                if (frontier.get("group_by") != null) {
                    groupBy = list(frontier.get("group_by"), "frontier.group_by", (n, p) -> {
                        String s = catalogueName(n, p, GroupColumn.columns());
                        return s == null ? null : GroupColumn.byColumn(s);
                    }, true);
                }
            }
            SweepSpec.PointsPolicy points = SweepSpec.PointsPolicy.FEASIBLE;
            MapNode output = root.get("output") == null ? null : map(root.get("output"), "output");
            if (output != null) {
                keys(output, "output", OUTPUT_KEYS);
                if (output.get("points") != null) {
                    SweepSpec.PointsPolicy p = enumValue(output.get("points"), "output.points",
                            SweepSpec.PointsPolicy.class);
                    points = p == null ? points : p;
                }
            }
            if (errors.isEmpty()) {
                checkTopologies(net == null ? null : net.get("topology"), topologies, chips, designs, scaleOuts,
                        domains, gpus);
            }
            if (errors.isEmpty()) {
                SweepSpec spec = new SweepSpec(source, name, description, sha, models, workloads, chips, scaleOuts,
                        gbps, domains, gpus, par, new SweepSpec.Constraints(bounds), objectives, groupBy, points,
                        designs, unbuildable, topologies, cost);
                try {
                    spec.grid();
                } catch (ArithmeticException e) {
                    error(root, "(grid)", "fewer than 2^63 points", "an overflowing product of axis sizes");
                }
                return spec;
            }
            return null;
        }

        /**
         * Expands each {@code hardware.derived} entry (every key may list values) into designs, checks catalogue
         * names where they are written, and builds each design once: designs that cannot exist (DRAM stacks that do
         * not fit the shoreline, a power budget below static + I/O power...) are listed, not fatal, because finding
         * them is part of exploring a design space.
         */
        void derived(SpecNode node, List<DerivedDesign> designs, List<String> unbuildable) {
            ListNode l = listNode(node, "hardware.derived");
            if (l == null) {
                return;
            }
            TechnologyCatalog tech = TechnologyCatalog.bundled();
            for (int i = 0; i < l.items().size(); i++) {
                String path = "hardware.derived[" + i + "]";
                MapNode m = map(l.items().get(i), path);
                if (m == null) {
                    continue;
                }
                keys(m, path, DERIVED_KEYS);
                int before = errors.size();
                SpecNode nameNode = required(m, path, "name", "a design name (prefix of the chip ids)");
                String name = nameNode == null ? null : string(nameNode, path + ".name");
                if (name != null && !NAME.matcher(name).matches()) {
                    error(nameNode, path + ".name", "a lower-case name of letters, digits, '.', '_' or '-'",
                            "'" + name + "'");
                }
                List<String> archs = m.get("architecture") == null ? List.of("blackwell") : list(m.get(
                        "architecture"), path + ".architecture", (n, p) -> catalogueName(n, p,
                        tech.architectures().keySet()));
                List<String> nodes = list(required(m, path, "node", "a list of logic nodes"), path + ".node",
                        (n, p) -> catalogueName(n, p, tech.nodes().keySet()));
                List<Integer> dies = m.get("dies") == null ? List.of(1) : list(m.get("dies"), path + ".dies",
                        (n, p) -> integer(n, p, 1, 8, "an integer in [1, 8]"));
                List<Double> areas = list(required(m, path, "die_area_mm2", "a list of die areas in mm2"),
                        path + ".die_area_mm2", (n, p) -> number(n, p, 0, 858, false));
                List<Double> watts = list(required(m, path, "power_w", "a list of power budgets in W"),
                        path + ".power_w", (n, p) -> number(n, p, 0, 1e5, false));
                List<Double> l2 = m.get("l2_mib") == null ? List.of(50.0) : list(m.get("l2_mib"), path + ".l2_mib",
                        (n, p) -> number(n, p, 0, 1e5, false));
                List<String> drams = list(required(m, path, "dram", "a list of DRAM types"), path + ".dram",
                        (n, p) -> catalogueName(n, p, tech.drams().keySet()));
                List<Integer> stacks = list(required(m, path, "stacks", "a list of DRAM stack counts"),
                        path + ".stacks", (n, p) -> integer(n, p, 1, 64, "an integer in [1, 64]"));
                String link = m.get("scale_up_link") == null ? "nvlink5" : catalogueName(m.get("scale_up_link"),
                        path + ".scale_up_link", tech.links().keySet());
                int links = m.get("scale_up_links") == null ? 18 : orElse(integer(m.get("scale_up_links"),
                        path + ".scale_up_links", 1, 256, "an integer in [1, 256]"), 18);
                int domain = m.get("scale_up_domain") == null ? 8 : orElse(integer(m.get("scale_up_domain"),
                        path + ".scale_up_domain", 1, MAX_PARALLEL, "an integer in [1, 65536]"), 8);
                if (errors.size() > before) {
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
                                                String id = DerivedDesign.id(name, nd, d, a, w, dr, st, arch);
                                                DerivedDesign design = new DerivedDesign(id, arch, nd, d, a, w, l2Mib,
                                                        dr, st, link, links, domain);
                                                try {
                                                    design.build(tech);
                                                    designs.add(design);
                                                } catch (InvalidInputException e) {
                                                    unbuildable.add(id + ": " + e.errors().get(0).fieldPath()
                                                            + ": expected " + e.errors().get(0).expected()
                                                            + ", found " + e.errors().get(0).found());
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
        }

        List<Workload> workloads(SpecNode node, List<ModelSpec> models) {
            List<Workload> out = new ArrayList<>();
            ListNode l = listNode(node, "phases");
            if (l == null) {
                return out;
            }
            for (int i = 0; i < l.items().size(); i++) {
                String path = "phases[" + i + "]";
                MapNode m = map(l.items().get(i), path);
                if (m == null) {
                    continue;
                }
                SpecNode phaseNode = required(m, path, "phase", "training or inference");
                SweepSpec.Phase phase = null;
                if (phaseNode != null) {
                    String s = string(phaseNode, path + ".phase");
                    if (s != null) {
                        if (s.equals("training")) {
                            phase = SweepSpec.Phase.TRAINING;
                        } else if (s.equals("inference")) {
                            phase = SweepSpec.Phase.INFERENCE;
                        } else {
                            error(phaseNode, path + ".phase", Names.expectedOneOf(s, List.of("training",
                                    "inference")), "'" + s + "'");
                        }
                    }
                }
                if (phase == SweepSpec.Phase.INFERENCE) {
                    phaseKeys(m, path, INFERENCE_PHASE_KEYS, PHASE_KEYS, "an inference phase",
                            "batch, input_tokens and output_tokens");
                    inferenceWorkloads(m, path, models, out);
                    continue;
                }
                if (phase == SweepSpec.Phase.TRAINING) {
                    phaseKeys(m, path, PHASE_KEYS, INFERENCE_PHASE_KEYS, "a training phase",
                            "seq_len and global_batch");
                } else {
                    List<String> all = new ArrayList<>(PHASE_KEYS);
                    all.addAll(INFERENCE_PHASE_KEYS.subList(1, INFERENCE_PHASE_KEYS.size()));
                    keys(m, path, all);
                    continue;
                }
                List<Integer> seqs = list(required(m, path, "seq_len", "a list of sequence lengths"),
                        path + ".seq_len", (n, p) -> {
                            Integer v = integer(n, p, 1, 16_777_216, "an integer in [1, 16777216]");
                            if (v != null) {
                                for (ModelSpec model : models) {
                                    if (v > model.maxSeqLen()) {
                                        error(n, p, "at most " + model.maxSeqLen() + " (max_seq_len of "
                                                + model.name() + ")", String.valueOf(v));
                                        return null;
                                    }
                                }
                            }
                            return v;
                        });
                List<Integer> batches = list(required(m, path, "global_batch", "a list of global batch sizes"),
                        path + ".global_batch", (n, p) -> integer(n, p, 1, 100_000_000, "an integer in [1, 100000000]"));
                for (Integer s : seqs) {
                    for (Integer b : batches) {
                        if (s != null && b != null) {
                            out.add(Workload.training(s, b));
                        }
                    }
                }
            }
            for (int i = 0; i < out.size(); i++) {
                if (out.subList(0, i).contains(out.get(i))) {
                    error(l, "phases", "distinct phase settings", out.get(i).describe() + " twice");
                }
            }
            return out;
        }

        /**
         * Keys of one phase entry: a key that belongs to the other phase gets its own message (what this phase takes
         * instead); anything else is an unknown key with the closest known one suggested.
         */
        void phaseKeys(MapNode m, String path, List<String> allowed, List<String> otherPhase, String which,
                       String takes) {
            for (String k : m.values().keySet()) {
                if (allowed.contains(k)) {
                    continue;
                }
                String at = path + "." + k;
                if (otherPhase.contains(k)) {
                    errors.add(new InputError(source, m.keyLine(k), m.keyColumn(k), at, "no '" + k + "' in " + which
                            + " (it takes " + takes + ")", "'" + k + "'"));
                } else {
                    errors.add(new InputError(source, m.keyLine(k), m.keyColumn(k), at, "a known key: "
                            + Names.expectedOneOf(k, allowed), "an unknown key"));
                }
            }
        }

        /**
         * An inference phase entry: batch x input_tokens x output_tokens x concurrency x the three storage formats x
         * cuda_graphs. Concurrency defaults to the batch (a static batch); the full context must fit every model.
         */
        void inferenceWorkloads(MapNode m, String path, List<ModelSpec> models, List<Workload> out) {
            int before = errors.size();
            List<Integer> batches = list(required(m, path, "batch", "a list of static batch sizes (requests)"),
                    path + ".batch", (n, p) -> integer(n, p, 1, 1_000_000, "an integer in [1, 1000000]"));
            List<Integer> inputs = list(required(m, path, "input_tokens", "a list of prompt lengths in tokens"),
                    path + ".input_tokens", (n, p) -> integer(n, p, 1, 16_777_216, "an integer in [1, 16777216]"));
            List<Integer> outputs = list(required(m, path, "output_tokens", "a list of generated lengths in tokens"),
                    path + ".output_tokens", (n, p) -> integer(n, p, 1, 16_777_216, "an integer in [1, 16777216]"));
            List<Integer> concurrency = m.get("concurrency") == null ? null : list(m.get("concurrency"),
                    path + ".concurrency", (n, p) -> integer(n, p, 1, 100_000_000, "an integer in [1, 100000000]"));
            List<Precision> weights = storageFormats(m, path, "weight_precision");
            List<Precision> activations = storageFormats(m, path, "activation_precision");
            List<Precision> kv = storageFormats(m, path, "kv_cache_precision");
            List<Boolean> graphs = m.get("cuda_graphs") == null ? List.of(false) : list(m.get("cuda_graphs"),
                    path + ".cuda_graphs", this::bool);
            if (errors.size() > before) {
                return;
            }
            for (int in : inputs) {
                for (int o : outputs) {
                    for (ModelSpec model : models) {
                        if ((long) in + o > model.maxSeqLen()) {
                            error(m.get("output_tokens"), path + ".output_tokens", "input_tokens + output_tokens at "
                                    + "most " + model.maxSeqLen() + " (max_seq_len of " + model.name() + ")",
                                    in + " + " + o + " = " + ((long) in + o));
                            return;
                        }
                    }
                }
            }
            for (int b : batches) {
                for (int in : inputs) {
                    for (int o : outputs) {
                        for (int c : concurrency == null ? List.of(b) : concurrency) {
                            for (Precision w : weights) {
                                for (Precision a : activations) {
                                    for (Precision k : kv) {
                                        for (boolean g : graphs) {
                                            out.add(Workload.inference(b, in, o, c, w, a, k, g));
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        /** A list of storage formats (default bf16): tf32 is a math mode, not a format a tensor is stored in. */
        private List<Precision> storageFormats(MapNode m, String path, String key) {
            if (m.get(key) == null) {
                return List.of(Precision.BF16);
            }
            return list(m.get(key), path + "." + key, (n, p) -> {
                Precision v = precision(n, p);
                if (v == Precision.TF32) {
                    error(n, p, "a storage format, one of [bf16, fp16, fp32, fp4, fp8] (tf32 is a math mode)",
                            n.describe());
                    return null;
                }
                return v;
            });
        }

        /**
         * One {@code network.topology} entry: a kind name ({@code fat-tree}) or a mapping with {@code kind} and that
         * kind's parameters (the registry in {@link TopologyAxis} says which keys each kind takes).
         */
        TopologyAxis topology(SpecNode n, String path) {
            TechnologyCatalog tech = TechnologyCatalog.bundled();
            if (n instanceof Scalar) {
                String kind = catalogueName(n, path, TopologyAxis.kindNames());
                return kind == null ? null : kind.equals("none") ? TopologyAxis.NONE
                        : new TopologyAxis(kind, kind, null, null, List.of(), java.util.Map.of());
            }
            MapNode m = map(n, path);
            if (m == null) {
                return null;
            }
            int before = errors.size();
            SpecNode kindNode = required(m, path, "kind", "a topology kind: one of " + TopologyAxis.kindNames());
            String kind = kindNode == null ? null : catalogueName(kindNode, path + ".kind", TopologyAxis.kindNames());
            if (kind == null) {
                keys(m, path, TOPOLOGY_KEYS);
                return null;
            }
            List<String> allowed = new ArrayList<>(List.of("kind", "name"));
            allowed.addAll(TopologyAxis.KINDS.get(kind).keys());
            for (String k : m.values().keySet()) {
                if (allowed.contains(k)) {
                    continue;
                }
                String expected = TOPOLOGY_KEYS.contains(k) ? "a key of a " + kind + " topology: one of "
                        + allowed.stream().sorted().toList() + " ('" + k + "' belongs to another kind)"
                        : "a known key: " + Names.expectedOneOf(k, allowed);
                errors.add(new InputError(source, m.keyLine(k), m.keyColumn(k), path + "." + k, expected,
                        "an unknown key"));
            }
            String name = m.get("name") == null ? null : string(m.get("name"), path + ".name");
            if (name != null && !NAME.matcher(name).matches()) {
                error(m.get("name"), path + ".name", "a lower-case name of letters, digits, '.', '_' or '-'",
                        "'" + name + "'");
            }
            List<Double> over = List.of();
            if (m.get("oversubscription") != null && allowed.contains("oversubscription")) {
                over = list(m.get("oversubscription"), path + ".oversubscription",
                        (x, p) -> number(x, p, 1, 1024, true));
                if (kind.equals("rail-optimized") && over.size() > 1) {
                    error(m.get("oversubscription"), path + ".oversubscription", "one spine ratio (down:up)",
                            over.size() + " ratios");
                } else if (kind.equals("fat-tree") && over.size() > 2) {
                    error(m.get("oversubscription"), path + ".oversubscription", "at most 2 ratios (leaf, "
                            + "aggregation: a fat-tree has at most 3 tiers)", over.size() + " ratios");
                }
            }
            java.util.LinkedHashMap<String, Integer> ints = new java.util.LinkedHashMap<>();
            for (String k : List.of("tiers", "routers_per_group", "endpoints_per_router", "global_links",
                    "links_per_neighbour", "dimensions")) {
                if (m.get(k) == null || !allowed.contains(k)) {
                    continue;
                }
                Integer v = switch (k) {
                    case "tiers" -> integer(m.get(k), path + "." + k, 2, 3, "2 or 3");
                    case "dimensions" -> integer(m.get(k), path + "." + k, 2, 3, "2 or 3");
                    default -> integer(m.get(k), path + "." + k, 1, 1024, "an integer in [1, 1024]");
                };
                if (v != null) {
                    ints.put(k, v);
                }
            }
            if (ints.containsKey("tiers") && over.size() > ints.get("tiers") - 1) {
                error(m.get("oversubscription"), path + ".oversubscription", "at most tiers - 1 = "
                        + (ints.get("tiers") - 1) + " ratios", over.size() + " ratios");
            }
            String link = m.get("link") == null || !allowed.contains("link") ? null
                    : catalogueName(m.get("link"), path + ".link", tech.links().keySet());
            String sw = m.get("switch") == null || !allowed.contains("switch") ? null
                    : catalogueName(m.get("switch"), path + ".switch", tech.switches().keySet());
            if (errors.size() > before) {
                return null;
            }
            String id = name != null ? name : TopologyAxis.defaultId(kind, over, ints, link, sw);
            return new TopologyAxis(id, kind, link, sw, List.copyOf(over), java.util.Map.copyOf(ints));
        }

        /**
         * Builds every topology for every cluster it will meet (GPU count x scale-out network x scale-up domain) so
         * that a fabric that cannot be built at some size is a spec error naming the entry, not a failed job.
         */
        void checkTopologies(SpecNode node, List<TopologyAxis> topologies, List<String> chips,
                             List<DerivedDesign> designs, List<String> scaleOuts, List<Integer> domains,
                             List<Integer> gpus) {
            if (node == null) {
                return;
            }
            TechnologyCatalog tech = TechnologyCatalog.bundled();
            List<String> ids = new ArrayList<>();
            for (int i = 0; i < topologies.size(); i++) {
                String path = topologies.size() == 1 && node instanceof Scalar ? "network.topology"
                        : "network.topology[" + i + "]";
                SpecNode at = node instanceof ListNode l ? l.items().get(i) : node;
                TopologyAxis t = topologies.get(i);
                if (ids.contains(t.id())) {
                    error(at, path + ".name", "distinct topology names (set name: to tell them apart)",
                            "'" + t.id() + "' again");
                    continue;
                }
                ids.add(t.id());
                checks:
                for (String chipId : chips) {
                    io.ridgeline.engine.hardware.Chip chip = null;
                    for (DerivedDesign d : designs) {
                        if (d.id().equals(chipId)) {
                            chip = d.build(tech);
                        }
                    }
                    if (chip == null) {
                        chip = hardwareCatalog.chip(chipId);
                    }
                    for (String out : scaleOuts) {
                        String netId = out.equals(SweepSpec.DEFAULT) ? hardwareCatalog.defaultNetwork(chip).id() : out;
                        for (int domain : domains) {
                            int dom = domain > 0 ? domain : chip.scaleUpDomain();
                            for (int g : gpus) {
                                try {
                                    t.build(g, dom, netId, tech);
                                } catch (InvalidInputException e) {
                                    InputError first = e.errors().get(0);
                                    error(at, path, "a " + t.kind() + " that can connect " + g + " GPUs on " + netId
                                            + " (" + first.fieldPath() + ": " + first.expected() + ")",
                                            first.found());
                                    break checks;
                                }
                            }
                        }
                    }
                }
            }
        }

        /** The {@code cost:} section: TcoParameters overrides (each range-checked) and the run's token budget. */
        CostSpec cost(SpecNode node) {
            CostSpec d = CostSpec.defaults();
            if (node == null) {
                return d;
            }
            MapNode m = map(node, "cost");
            if (m == null) {
                return d;
            }
            keys(m, "cost", COST_KEYS);
            double serverOverhead = costNumber(m, "server_overhead_factor", d.serverOverheadFactor(), 1, 100, true);
            double interconnect = costNumber(m, "interconnect_fraction", d.interconnectFraction(), 0, 0.99, true);
            double years = costNumber(m, "amortization_years", d.amortizationYears(), 0, 50, false);
            double serverPower = costNumber(m, "server_power_factor", d.serverPowerFactor(), 1, 100, true);
            double load = costNumber(m, "load_fraction", d.loadFraction(), 0, 1, false);
            double pue = costNumber(m, "pue", d.pue(), 1, 10, true);
            double kwh = costNumber(m, "usd_per_kwh", d.usdPerKwh(), 0, 100, true);
            double availability = costNumber(m, "availability_fraction", d.availabilityFraction(), 0, 1, false);
            double tokens = costNumber(m, "tokens", 0, 0, 1e18, false);
            return new CostSpec(serverOverhead, interconnect, years, serverPower, load, pue, kwh, availability,
                    tokens);
        }

        private double costNumber(MapNode m, String key, double fallback, double min, double max, boolean inclusive) {
            if (m.get(key) == null) {
                return fallback;
            }
            Double v = number(m.get(key), "cost." + key, min, max, inclusive);
            return v == null ? fallback : v;
        }

        Parallelism parallelism(SpecNode node) {
            MapNode m = map(node, "parallelism");
            List<Integer> none = List.of();
            if (m == null) {
                return null;
            }
            keys(m, "parallelism", PARALLELISM_KEYS);
            SweepSpec.Mode mode = m.get("mode") == null ? SweepSpec.Mode.SEARCH
                    : enumValue(m.get("mode"), "parallelism.mode", SweepSpec.Mode.class);
            boolean overlap = m.get("overlap_grad") == null || bool(m.get("overlap_grad"),
                    "parallelism.overlap_grad");
            boolean flash = m.get("flash_attention") == null || bool(m.get("flash_attention"),
                    "parallelism.flash_attention");
            if (mode == SweepSpec.Mode.EXPLICIT) {
                for (String k : SEARCH_LISTS) {
                    if (m.get(k) != null) {
                        error(m.get(k), "parallelism." + k, "no search list in explicit mode (put " + k
                                + " inside each of parallelism.plans)", m.get(k).describe());
                    }
                }
                if (m.get("keep") != null) {
                    error(m.get("keep"), "parallelism.keep", "no 'keep' in explicit mode (it applies to search)",
                            m.get("keep").describe());
                }
                List<ExplicitPlan> plans = list(required(m, "parallelism", "plans", "a list of plans"),
                        "parallelism.plans", this::plan);
                return new Parallelism(mode, SweepSpec.Keep.BEST, none, none, none, none, none, none, none,
                        List.of(), List.of(), List.of(), overlap, flash, plans);
            }
            if (m.get("plans") != null) {
                error(m.get("plans"), "parallelism.plans", "no explicit plans in search mode (set mode: explicit)",
                        m.get("plans").describe());
            }
            SweepSpec.Keep keep = m.get("keep") == null ? SweepSpec.Keep.BEST
                    : enumValue(m.get("keep"), "parallelism.keep", SweepSpec.Keep.class);
            return new Parallelism(mode, keep,
                    ints(m, "tp", List.of(1, 2, 4, 8)), ints(m, "pp", List.of(1, 2, 4, 8, 16)),
                    ints(m, "cp", List.of(1)), ints(m, "ep", List.of(1)), ints(m, "vpp", List.of(1)),
                    ints(m, "micro_batch", List.of(1, 2, 4)),
                    m.get("zero") == null ? List.of(1) : list(m.get("zero"), "parallelism.zero",
                            (n, p) -> integer(n, p, 0, 3, "an integer in [0, 3]")),
                    m.get("sp") == null ? List.of(true) : list(m.get("sp"), "parallelism.sp", this::bool),
                    m.get("recompute") == null ? List.of(Recompute.SELECTIVE) : list(m.get("recompute"),
                            "parallelism.recompute", this::recompute),
                    m.get("precision") == null ? List.of(Precision.BF16) : list(m.get("precision"),
                            "parallelism.precision", this::precision),
                    overlap, flash, List.of());
        }

        private List<Integer> ints(MapNode m, String key, List<Integer> fallback) {
            if (m.get(key) == null) {
                return fallback;
            }
            return list(m.get(key), "parallelism." + key,
                    (n, p) -> integer(n, p, 1, MAX_PARALLEL, "an integer in [1, " + MAX_PARALLEL + "]"));
        }

        ExplicitPlan plan(SpecNode node, String path) {
            MapNode m = map(node, path);
            if (m == null) {
                return null;
            }
            keys(m, path, PLAN_KEYS);
            int tp = optInt(m, path, "tp", 1, 1);
            int pp = optInt(m, path, "pp", 1, 1);
            int dp = optInt(m, path, "dp", 0, 1);
            int cp = optInt(m, path, "cp", 1, 1);
            int ep = optInt(m, path, "ep", 1, 1);
            int vpp = optInt(m, path, "vpp", 1, 1);
            int mb = optInt(m, path, "micro_batch", 1, 1);
            int zero = m.get("zero") == null ? 1 : orElse(integer(m.get("zero"), path + ".zero", 0, 3,
                    "an integer in [0, 3]"), 1);
            boolean sp = m.get("sp") == null ? tp > 1 : bool(m.get("sp"), path + ".sp");
            Recompute rc = m.get("recompute") == null ? Recompute.SELECTIVE : recompute(m.get("recompute"),
                    path + ".recompute");
            Precision pr = m.get("precision") == null ? Precision.BF16 : precision(m.get("precision"),
                    path + ".precision");
            return new ExplicitPlan(tp, pp, dp, cp, ep, sp, vpp, zero, mb, rc == null ? Recompute.SELECTIVE : rc,
                    pr == null ? Precision.BF16 : pr);
        }

        private int optInt(MapNode m, String path, String key, int fallback, int min) {
            if (m.get(key) == null) {
                return fallback;
            }
            return orElse(integer(m.get(key), path + "." + key, min, MAX_PARALLEL,
                    "an integer in [" + min + ", " + MAX_PARALLEL + "]"), fallback);
        }

        /**
         * Why a metric would be null on some rows of this sweep (a phase-specific column while the sweep has the
         * other phase, run_cost_usd without cost.tokens), or null when every row fills it. A null objective or bound
         * would put rows on frontiers or mark them as constraint misses for no reason.
         */
        String unfilled(Metric metric) {
            for (SweepSpec.Phase phase : phases) {
                if (!metric.filledBy(phase)) {
                    return metric.column() + " is null on " + phase.id() + " rows";
                }
            }
            if (metric == Metric.RUN_COST_USD && !tokensBudget) {
                return "run_cost_usd needs cost.tokens, the tokens of one run";
            }
            return null;
        }

        List<Bound> constraints(SpecNode node) {
            List<Bound> out = new ArrayList<>();
            if (node == null) {
                return out;
            }
            MapNode m = map(node, "constraints");
            if (m == null) {
                return out;
            }
            keys(m, "constraints", CONSTRAINT_KEYS);
            for (String side : List.of("max", "min")) {
                MapNode b = m.get(side) == null ? null : map(m.get(side), "constraints." + side);
                if (b == null) {
                    continue;
                }
                for (var e : b.values().entrySet()) {
                    String path = "constraints." + side + "." + e.getKey();
                    Metric metric = Metric.byColumn(e.getKey());
                    if (metric == null) {
                        errors.add(new InputError(source, b.keyLine(e.getKey()), b.keyColumn(e.getKey()), path,
                                "a result column: " + Names.expectedOneOf(e.getKey(), Metric.columns()),
                                "'" + e.getKey() + "'"));
                        continue;
                    }
                    Double limit = number(e.getValue(), path, -Double.MAX_VALUE, Double.MAX_VALUE, true);
                    String missing = unfilled(metric);
                    if (missing != null) {
                        errors.add(new InputError(source, b.keyLine(e.getKey()), b.keyColumn(e.getKey()), path,
                                "a column every row of the sweep fills (" + missing + ")", "'" + e.getKey() + "'"));
                        continue;
                    }
                    if (limit != null) {
                        out.add(new Bound(metric, side.equals("max"), limit));
                    }
                }
            }
            return out;
        }

        List<Objective> objectives(SpecNode node) {
            if (node == null) {
                return List.of(new Objective(Metric.TOKENS_PER_S, Goal.MAX), new Objective(Metric.COST_USD, Goal.MIN));
            }
            List<Objective> out = list(node, "objectives", (n, path) -> {
                MapNode m = map(n, path);
                if (m == null) {
                    return null;
                }
                keys(m, path, OBJECTIVE_KEYS);
                if (m.values().size() != 1) {
                    error(m, path, "exactly one of max: COLUMN or min: COLUMN", m.values().size() + " keys");
                    return null;
                }
                String goalKey = m.values().keySet().iterator().next();
                if (!OBJECTIVE_KEYS.contains(goalKey)) {
                    return null;
                }
                String col = catalogueName(m.get(goalKey), path + "." + goalKey, Metric.columns());
                String missing = col == null ? null : unfilled(Metric.byColumn(col));
                if (missing != null) {
                    error(m.get(goalKey), path + "." + goalKey, "a column every row of the sweep fills (" + missing
                            + ")", "'" + col + "'");
                    return null;
                }
                return col == null ? null : new Objective(Metric.byColumn(col), goalKey.equals("max") ? Goal.MAX
                        : Goal.MIN);
            });
            ListNode l = node instanceof ListNode ln ? ln : null;
            for (int i = 0; i < out.size(); i++) {
                for (int j = 0; j < i; j++) {
                    if (out.get(i).metric() == out.get(j).metric()) {
                        error(l == null ? node : l.items().get(i), "objectives[" + i + "]",
                                "each column once (objectives[" + j + "] already uses it)",
                                "'" + out.get(i).metric().column() + "' again");
                    }
                }
            }
            return out;
        }

        // ---- domain readers (generic typed readers: spec.SpecReader) ----

        Recompute recompute(SpecNode n, String path) {
            String s = n instanceof Scalar sc ? sc.text() : null;
            Recompute r = s == null ? null : Recompute.parse(s);
            if (r == null) {
                error(n, path, Names.expectedOneOf(s == null ? "" : s,
                        Arrays.stream(Recompute.values()).map(Recompute::id).toList()), n.describe());
            }
            return r;
        }

        Precision precision(SpecNode n, String path) {
            String s = n instanceof Scalar sc ? sc.text() : null;
            Precision p = s == null ? null : Precision.parse(s);
            if (p == null) {
                error(n, path, Names.expectedOneOf(s == null ? "" : s,
                        Arrays.stream(Precision.values()).map(Precision::id).toList()), n.describe());
            }
            return p;
        }

    }
}
