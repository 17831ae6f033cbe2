package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.StackProfile;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.ListNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.sweep.SweepSpec.Workload;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code phases} section: each entry adds the product of its lists to the workload axis. A training entry is
 * seq_len x global_batch x software; an inference entry its serving loads (mode x batch x concurrency or
 * requests_per_s x disaggregation, {@link ServingLoads}) x input_tokens x output_tokens x the three storage formats x
 * software x cuda_graphs (a serving stack sets cuda_graphs itself; {@code software: none} runs without one). Sequences must fit every
 * model's context (max_seq_len); a training phase names stacks that train, an inference phase stacks that serve.
 */
final class PhasesReader {
    private final SweepReader r;
    /** The software value of an inference phase without a runtime profile (the engine's own constants). */
    static final String NONE = "none";
    private final StackCatalog stacks = StackCatalog.bundled();

    PhasesReader(SweepReader r) {
        this.r = r;
    }

    List<Workload> read(SpecNode node, List<ModelSpec> models) {
        List<Workload> out = new ArrayList<>();
        ListNode l = r.listNode(node, "phases");
        if (l == null) {
            return out;
        }
        List<String> trainingKeys = r.reference.keys("phases.training");
        List<String> inferenceKeys = r.reference.keys("phases.inference");
        for (int i = 0; i < l.items().size(); i++) {
            String path = "phases[" + i + "]";
            MapNode m = r.map(l.items().get(i), path);
            if (m == null) {
                continue;
            }
            SweepSpec.Phase phase = phase(m, path);
            if (phase == SweepSpec.Phase.INFERENCE) {
                phaseKeys(m, path, inferenceKeys, trainingKeys, "an inference phase",
                        "mode, batch or concurrency, input_tokens and output_tokens");
                inference(m, path, models, out);
            } else if (phase == SweepSpec.Phase.TRAINING) {
                phaseKeys(m, path, trainingKeys, inferenceKeys, "a training phase", "seq_len and global_batch");
                training(m, path, models, out);
            } else {
                List<String> all = new ArrayList<>(trainingKeys);
                for (String k : inferenceKeys) {
                    if (!all.contains(k)) {
                        all.add(k);
                    }
                }
                r.keys(m, path, all);
            }
        }
        for (int i = 0; i < out.size(); i++) {
            if (out.subList(0, i).contains(out.get(i))) {
                r.error(l, "phases", "distinct phase settings", out.get(i).describe() + " twice");
            }
        }
        return out;
    }

    private SweepSpec.Phase phase(MapNode m, String path) {
        SpecNode phaseNode = r.required(m, path, "phase", "training or inference");
        String s = phaseNode == null ? null : r.string(phaseNode, path + ".phase");
        if (s == null) {
            return null;
        }
        for (SweepSpec.Phase p : SweepSpec.Phase.values()) {
            if (p.id().equals(s)) {
                return p;
            }
        }
        r.error(phaseNode, path + ".phase", Names.expectedOneOf(s, List.of("training", "inference")), "'" + s + "'");
        return null;
    }

    /**
     * Keys of one phase entry: a key that belongs to the other phase gets its own message (what this phase takes
     * instead); anything else is an unknown key with the closest known one suggested.
     */
    private void phaseKeys(MapNode m, String path, List<String> allowed, List<String> otherPhase, String which,
                           String takes) {
        for (String k : m.values().keySet()) {
            if (allowed.contains(k)) {
                continue;
            }
            String at = path + "." + k;
            if (otherPhase.contains(k)) {
                r.errors().add(new InputError(r.source(), m.keyLine(k), m.keyColumn(k), at, "no '" + k + "' in "
                        + which + " (it takes " + takes + ")", "'" + k + "'"));
            } else {
                r.errors().add(new InputError(r.source(), m.keyLine(k), m.keyColumn(k), at, "a known key: "
                        + Names.expectedOneOf(k, allowed), "an unknown key"));
            }
        }
    }

    private void training(MapNode m, String path, List<ModelSpec> models, List<Workload> out) {
        List<Integer> seqs = r.list(r.required(m, path, "seq_len", "a list of sequence lengths"), path + ".seq_len",
                (n, p) -> {
                    Integer v = r.integer(n, p, 1, 16_777_216, "an integer in [1, 16777216]");
                    if (v != null) {
                        for (ModelSpec model : models) {
                            if (v > model.maxSeqLen()) {
                                r.error(n, p, "at most " + model.maxSeqLen() + " (max_seq_len of " + model.name()
                                        + ")", String.valueOf(v));
                                return null;
                            }
                        }
                    }
                    return v;
                });
        List<Integer> batches = r.list(r.required(m, path, "global_batch", "a list of global batch sizes"),
                path + ".global_batch", (n, p) -> r.integer(n, p, 1, 100_000_000, "an integer in [1, 100000000]"));
        List<String> software = software(m, path, SweepSpec.Phase.TRAINING);
        for (Integer s : seqs) {
            for (Integer b : batches) {
                for (String sw : software) {
                    out.add(Workload.training(s, b, sw));
                }
            }
        }
    }

    /**
     * An inference entry: the serving settings ({@link ServingLoads}: mode x batch x load x prefill:decode split),
     * then lengths, storage formats, stacks and CUDA graphs. The full context must fit every model.
     */
    private void inference(MapNode m, String path, List<ModelSpec> models, List<Workload> out) {
        int before = r.errors().size();
        List<ServingLoads.Load> loads = new ServingLoads(r).read(m, path);
        List<Integer> inputs = r.list(r.required(m, path, "input_tokens", "a list of prompt lengths in tokens"),
                path + ".input_tokens", (n, p) -> r.integer(n, p, 1, 16_777_216, "an integer in [1, 16777216]"));
        List<Integer> outputs = r.list(r.required(m, path, "output_tokens", "a list of generated lengths in tokens"),
                path + ".output_tokens", (n, p) -> r.integer(n, p, 1, 16_777_216, "an integer in [1, 16777216]"));
        List<Precision> weights = formats(m, path, "weight_precision");
        List<Precision> activations = formats(m, path, "activation_precision");
        List<Precision> kv = formats(m, path, "kv_cache_precision");
        List<Boolean> graphs = r.list(r.value(m, "phases.inference", "cuda_graphs"), path + ".cuda_graphs", r::bool);
        List<String> software = software(m, path, SweepSpec.Phase.INFERENCE);
        if (!software.contains("") && m.get("cuda_graphs") != null) {
            // A serving stack decides whether decode runs as CUDA graphs: a second answer beside it would be ignored.
            r.error(m.get("cuda_graphs"), path + ".cuda_graphs", "no cuda_graphs beside a serving stack (each "
                    + "stack's profile says whether decode runs as CUDA graphs; software: none takes cuda_graphs"
                    + (m.get("software") == null ? ", and the default stack is " + SweepSpec.defaultSoftware(
                    SweepSpec.Phase.INFERENCE) : "") + ")", m.get("cuda_graphs").describe());
        }
        if (r.errors().size() > before) {
            return;
        }
        for (int in : inputs) {
            for (int o : outputs) {
                for (ModelSpec model : models) {
                    if ((long) in + o > model.maxSeqLen()) {
                        r.error(m.get("output_tokens"), path + ".output_tokens", "input_tokens + output_tokens at "
                                + "most " + model.maxSeqLen() + " (max_seq_len of " + model.name() + ")",
                                in + " + " + o + " = " + ((long) in + o));
                        return;
                    }
                }
            }
        }
        // Batch outermost, then lengths, then the load: the order static sweeps had before serving modes.
        int first = 0;
        while (first < loads.size()) {
            int last = first;
            while (last < loads.size() && loads.get(last).sameGroup(loads.get(first))) {
                last++;
            }
            for (int in : inputs) {
                for (int o : outputs) {
                    for (ServingLoads.Load load : loads.subList(first, last)) {
                        for (Precision w : weights) {
                            for (Precision a : activations) {
                                for (Precision k : kv) {
                                    for (String sw : software) {
                                        for (boolean g : sw.isEmpty() ? graphs
                                                : List.of(stacks.profile(sw).serving().cudaGraphs())) {
                                            out.add(Workload.inference(load.batch(), in, o, load.concurrency(), w,
                                                    a, k, g, sw).serving(load.mode(), load.batch(),
                                                    load.concurrency(), load.requestsPerSecond(), load.prefill(),
                                                    load.decode()));
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
            first = last;
        }
    }

    /**
     * The phase's software stacks: catalogued ids (or aliases, read as their id) whose profile has this phase's
     * section; the reference default when the entry names none ("" = none, inference without a runtime profile).
     */
    private List<String> software(MapNode m, String path, SweepSpec.Phase phase) {
        String section = phase == SweepSpec.Phase.TRAINING ? "training" : "serving";
        SpecNode n = r.value(m, "phases." + phase.id(), "software");
        if (n == null) {
            return List.of("");
        }
        List<String> names = new ArrayList<>(stacks.profiles().keySet());
        List<String> fitting = new ArrayList<>();
        for (StackProfile p : stacks.profiles().values()) {
            names.addAll(p.aliases());
            if (phase == SweepSpec.Phase.TRAINING ? p.trains() : p.serves()) {
                fitting.add(p.id());
            }
        }
        if (phase == SweepSpec.Phase.INFERENCE) {
            names.add(NONE);
        }
        return r.list(n, path + ".software", (x, p) -> {
            if (phase == SweepSpec.Phase.INFERENCE && x instanceof SpecNode.Scalar sc && NONE.equals(sc.text())) {
                return "";
            }
            String id = r.catalogueName(x, p, names);
            if (id == null) {
                return null;
            }
            StackProfile profile = stacks.profile(id);
            if (phase == SweepSpec.Phase.TRAINING ? !profile.trains() : !profile.serves()) {
                r.error(x, p, "a stack that " + (phase == SweepSpec.Phase.TRAINING ? "trains" : "serves") + " (a "
                        + section + " section in catalog/stacks.yaml): one of " + fitting.stream().sorted().toList(),
                        "'" + id + "'");
                return null;
            }
            return profile.id();
        });
    }

    private List<Precision> formats(MapNode m, String path, String key) {
        return r.list(r.value(m, "phases.inference", key), path + "." + key, r::storageFormat);
    }
}
