package io.ridgeline.engine.sweep;

import io.ridgeline.engine.spec.LowerCaseId;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.pareto.Goal;
import io.ridgeline.engine.spec.SpecNode;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * A validated sweep: what to evaluate (axes), how to choose parallelism, what a good point is (constraints,
 * objectives, frontier groups) and what to write. Holds only names and numbers, so it serialises to executors, which
 * resolve catalogue entries themselves. Build it with {@link SweepLoader}; the records trust their inputs.
 *
 * @param source        the file it came from (for messages)
 * @param specSha256    hash of the file's bytes: the runs manifest records it
 * @param scaleOuts     scale-out network ids; {@link #DEFAULT} = each chip's reference network
 * @param scaleOutGbitPerSecond  per-GPU scale-out rates in Gbit/s; 0 = the network's own rate
 * @param scaleUpDomains GPUs per scale-up domain; 0 = the chip's own domain
 * @param chips         preset ids, then the ids of buildable derived designs
 * @param derived       the buildable technology-derived designs (their ids are in {@code chips})
 * @param unbuildable   derived combinations that cannot exist, each with the builder's reason (not in the grid)
 * @param topologies    scale-out fabrics ({@link TopologyAxis#NONE} = flat full bisection), built per GPU count
 * @param cost          TCO parameters and the token budget of one run
 * @param sensitivity   output.sensitivity: rows gain the sens_* columns (engine.sensitivity, ~8-15 evaluations more)
 * @param calibration   the calibration profile the run applies (key {@code calibration}), or null for none
 * @param intervalCoverage output.interval_coverage: coverage of the _lo/_hi interval columns (a fraction)
 */
public record SweepSpec(String source, String name, String description, String specSha256, List<String> models,
                        List<Workload> workloads, List<String> chips, List<String> scaleOuts,
                        List<Double> scaleOutGbitPerSecond, List<Integer> scaleUpDomains, List<Integer> gpuCounts,
                        Parallelism parallelism, Constraints constraints, List<Objective> objectives,
                        List<GroupColumn> groupBy, PointsPolicy points, List<DerivedDesign> derived,
                        List<String> unbuildable, List<TopologyAxis> topologies, CostSpec cost,
                        boolean sensitivity, CalibrationFile calibration, double intervalCoverage)
        implements Serializable {
    private static final long serialVersionUID = 3L;
    public static final String DEFAULT = "default";

    /** Workload phases: training steps (TrainingStep) or serving requests (InferenceStep). */
    public enum Phase implements LowerCaseId {
        TRAINING, INFERENCE;
    }

    /**
     * One phase setting. Training: one sequence length and one global batch (sequences per step). Inference: requests
     * of {@code inputTokens} prompt and {@code outputTokens} generated tokens, how they arrive ({@code servingMode}),
     * the storage formats and the deployment (aggregated, or disaggregated prefill:decode replicas); {@code seqLen} is
     * then the full context (input + output) and {@code globalBatch} the static batch (0 in the continuous modes), so
     * the default frontier groups work for both phases.
     *
     * @param servingMode       inference: static, saturated or online (docs/INFERENCE.md, "Serving modes"); "" for
     *                          training
     * @param concurrency       static: requests in flight for serving_output_tokens_per_s_per_gpu (default the batch);
     *                          saturated: a cap on requests in flight per (decode) replica, 0 = none; online:
     *                          concurrent clients per replica, 0 when a request rate is given
     * @param requestsPerSecond online: requests arriving per second per replica; 0 when clients are given
     * @param prefillReplicas   disaggregated serving: prefill replicas of one deployment unit; 0 = aggregated
     * @param decodeReplicas    disaggregated serving: decode replicas of one deployment unit; 0 = aggregated
     * @param software          the software stack's id (catalog/stacks.yaml) whose mechanisms the phase runs with;
     *                          "" = none (inference without a runtime profile: fused attention, cuda_graphs as given)
     * @param requests          saturated: a finite run of this many requests queued at once (a measured case's
     *                          benchmark run, validation/README.md); 0 = the steady state, as sweep files give it
     */
    public record Workload(Phase phase, int seqLen, int globalBatch, int inputTokens, int outputTokens,
                           int concurrency, Precision weightPrecision, Precision activationPrecision,
                           Precision kvCachePrecision, boolean cudaGraphs, String software, String servingMode,
                           double requestsPerSecond, int prefillReplicas, int decodeReplicas, int requests)
            implements Serializable {
        private static final long serialVersionUID = 4L;

        public static Workload training(int seqLen, int globalBatch, String software) {
            return new Workload(Phase.TRAINING, seqLen, globalBatch, 0, 0, 0, null, null, null, false, software, "",
                    0, 0, 0, 0);
        }

        /** A static batch (the serving-throughput field at {@code concurrency}), aggregated. */
        public static Workload inference(int batch, int inputTokens, int outputTokens, int concurrency,
                                         Precision weights, Precision activations, Precision kvCache,
                                         boolean cudaGraphs, String software) {
            return new Workload(Phase.INFERENCE, inputTokens + outputTokens, batch, inputTokens, outputTokens,
                    concurrency, weights, activations, kvCache, cudaGraphs, software, "static", 0, 0, 0, 0);
        }

        /** The same setting served another way: mode, load (clients or cap, or a rate) and prefill:decode split. */
        public Workload serving(String mode, int batch, int concurrency, double requestsPerSecond, int prefill,
                                int decode) {
            return new Workload(phase, seqLen, batch, inputTokens, outputTokens, concurrency, weightPrecision,
                    activationPrecision, kvCachePrecision, cudaGraphs, software, mode, requestsPerSecond, prefill,
                    decode, requests);
        }

        /** The same setting as a finite benchmark run of {@code n} requests (saturated; 0 = the steady state). */
        public Workload withRequests(int n) {
            return new Workload(phase, seqLen, globalBatch, inputTokens, outputTokens, concurrency, weightPrecision,
                    activationPrecision, kvCachePrecision, cudaGraphs, software, servingMode, requestsPerSecond,
                    prefillReplicas, decodeReplicas, n);
        }

        public boolean inference() {
            return phase == Phase.INFERENCE;
        }

        /** Prefill and decode on separate replicas. */
        public boolean disaggregated() {
            return prefillReplicas > 0;
        }

        /** The prefill:decode split as the disaggregation column writes it ("none" when aggregated). */
        public String disaggregation() {
            return disaggregated() ? prefillReplicas + ":" + decodeReplicas : "none";
        }

        /** How the setting reads in messages. */
        public String describe() {
            return (inference() ? "phase inference mode " + servingMode + (globalBatch > 0 ? " batch " + globalBatch
                    : "") + " input_tokens " + inputTokens + " output_tokens " + outputTokens
                    + (concurrency > 0 ? " concurrency " + concurrency : "")
                    + (requestsPerSecond > 0 ? " requests_per_s " + requestsPerSecond : "")
                    + (requests > 0 ? " requests " + requests : "") + " weights "
                    + weightPrecision.id() + " activations " + activationPrecision.id() + " kv_cache "
                    + kvCachePrecision.id() + " cuda_graphs " + cudaGraphs
                    + (disaggregated() ? " disaggregation " + disaggregation() : "")
                    : "phase training seq_len " + seqLen + " global_batch " + globalBatch)
                    + (software.isEmpty() ? "" : " software " + software);
        }
    }

    /**
     * A calibration profile as the sweep names it: the file (resolved against the sweep file's directory), its text
     * and the SHA-256 of its bytes. The text travels with the spec to the executors, which build the catalogues and
     * intervals from it (engine.calibration reads it; this package only carries it).
     */
    public record CalibrationFile(String path, String text, String sha256) implements Serializable {
        private static final long serialVersionUID = 1L;

        /** What the runs manifest records: "PATH sha256:HEX". */
        public String describe() {
            return path + " sha256:" + sha256;
        }
    }

    public enum Mode { SEARCH, EXPLICIT }

    /** What a search keeps per grid point: the best plan (objectives in order, lexicographic) or its frontier. */
    public enum Keep { BEST, FRONTIER }

    /** Which points the {@code points} table receives; the frontier is always written. */
    public enum PointsPolicy implements LowerCaseId {
        ALL, FEASIBLE, NONE;
    }

    /**
     * Parallelism: explicit plans (an axis of the grid) or a search over the cross product of these lists per
     * hardware point, keeping only plans whose shape is valid for the model, GPU count and batch. What the software
     * does (DP overlap, attention kernel) is the phase's {@link Workload#software()}, not a plan setting.
     */
    public record Parallelism(Mode mode, Keep keep, List<Integer> tp, List<Integer> pp, List<Integer> cp,
                              List<Integer> ep, List<Integer> vpp, List<Integer> microBatch, List<Integer> zero,
                              List<Boolean> sp, List<Recompute> recompute, List<Precision> precision,
                              List<ExplicitPlan> plans) implements Serializable {
        private static final long serialVersionUID = 2L;
    }

    /** One explicit plan; {@code dp == 0} means "whatever fills the cluster": gpu_count / (tp x pp x cp). */
    public record ExplicitPlan(int tp, int pp, int dp, int cp, int ep, boolean sp, int vpp, int zero, int microBatch,
                               Recompute recompute, Precision precision) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** Bounds on metric columns; a point outside them is kept as a row with status "constraint", never on a frontier. */
    public record Constraints(List<Bound> bounds) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** {@code metric <= limit} when {@code upper}, else {@code metric >= limit}. */
    public record Bound(Metric metric, boolean upper, double limit) implements Serializable {
        private static final long serialVersionUID = 1L;

        public boolean holds(double value) {
            return upper ? value <= limit : value >= limit;
        }

        /** The row's detail when violated, built once. */
        public String describe() {
            return metric.column() + (upper ? " > " : " < ") + limit;
        }
    }

    public record Objective(Metric metric, Goal goal) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /**
     * The software stacks of the sweep's phases as the run header prints them, each marked "(default)" when it is the
     * reference default: "megatron-bridge@25.11 (default)"; with both phases "training ...; inference none (default)".
     */
    public String describeSoftware() {
        Map<Phase, List<String>> byPhase = new EnumMap<>(Phase.class);
        for (Workload w : workloads) {
            List<String> ids = byPhase.computeIfAbsent(w.phase(), k -> new ArrayList<>());
            if (!ids.contains(w.software())) {
                ids.add(w.software());
            }
        }
        StringJoiner out = new StringJoiner("; ");
        for (Map.Entry<Phase, List<String>> e : byPhase.entrySet()) {
            String fallback = defaultSoftware(e.getKey());
            StringJoiner ids = new StringJoiner(", ", byPhase.size() > 1 ? e.getKey().id() + " "
                    : "", "");
            for (String id : e.getValue()) {
                ids.add((id.isEmpty() ? "none" : id) + (id.equals(fallback) ? " (default)" : ""));
            }
            out.add(ids.toString());
        }
        return out.toString();
    }

    /** The reference default stack of a phase (sweeps/reference.yaml); "" = none. */
    public static String defaultSoftware(Phase phase) {
        SpecNode n = Reference.bundled().at("phases." + phase.id() + ".software");
        return n instanceof SpecNode.ListNode l ? ((SpecNode.Scalar) l.items().get(0)).text() : "";
    }

    /** Slots of a per-partition plan-list cache: one per (model, workload, GPU count[, explicit plan]), <= 2^24. */
    public int planSlots() {
        long slots = (long) models.size() * workloads.size() * gpuCounts.size()
                * (parallelism.mode() == Mode.EXPLICIT ? parallelism.plans().size() : 1);
        return (int) Math.min(slots, 1 << 24);
    }

    /** Where a grid point's plan list is cached: plans depend on (model, workload, GPU count[, explicit plan]). */
    public int planSlot(int model, int workload, int gpuCount, int plan) {
        int slot = (model * workloads.size() + workload) * gpuCounts.size() + gpuCount;
        return parallelism.mode() == Mode.EXPLICIT ? slot * parallelism.plans().size() + plan : slot;
    }

    /** Number of grid axes; the last one (plans) has size 1 in search mode. */
    public Grid grid() {
        return new Grid(new long[]{models.size(), workloads.size(), chips.size(), scaleOuts.size(),
                scaleOutGbitPerSecond.size(), scaleUpDomains.size(), topologies.size(), gpuCounts.size(),
                parallelism.mode() == Mode.EXPLICIT ? parallelism.plans().size() : 1});
    }
}
