package io.ridgeline.engine.sweep;

import io.ridgeline.engine.cost.GpuHourCost;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.inference.InferenceStep;
import io.ridgeline.engine.inference.InferenceWorkload;
import io.ridgeline.engine.pareto.Skyline;
import io.ridgeline.engine.evaluation.Infeasibility;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * The inference half of {@link SweepEvaluator}: evaluates a grid point whose workload is an inference phase setting
 * with {@link InferenceStep}, under the same selection rules as training (explicit plan as given; search keeps the
 * best eligible plan or the point's own frontier; otherwise the closest miss, constraint before memory before shape).
 *
 * <p>Plans: one replica is {@code tp x ep x pp} GPUs and the cluster runs
 * {@code dp = floor(gpu_count / (tp x ep x pp))}
 * replicas (an explicit plan may give a smaller dp). Precisions and CUDA graphs come from the workload (they are
 * phase settings, swept as axes, not searched). Plan lists and {@link InferenceWorkload}s are built once per
 * partition; {@link InferenceStep} keeps its per-(model, system, plan) tables while those objects repeat.
 */
final class InferencePoints {
    private final SweepSpec spec;
    private final ModelSpec[] models;
    private final SweepEvaluator owner;
    private final InferenceStep step = new InferenceStep();
    private final InferenceWorkload[] workloads;
    private final InferencePlan[][] planCache;
    private final double[] metrics = new double[Metric.values().length];
    private final double[] objective;
    private final double[] bestObjective;
    private final Skyline<Candidate> pointFrontier;

    private record Candidate(int planIndex, InferenceResult result, double[] metrics) {
    }

    InferencePoints(SweepSpec spec, ModelSpec[] models, SweepEvaluator owner) {
        this.spec = spec;
        this.models = models;
        this.owner = owner;
        this.workloads = new InferenceWorkload[spec.workloads().size()];
        for (int i = 0; i < workloads.length; i++) {
            SweepSpec.Workload w = spec.workloads().get(i);
            if (w.inference()) {
                workloads[i] = new InferenceWorkload(w.globalBatch(), w.inputTokens(), w.outputTokens(),
                        w.concurrency());
            }
        }
        long slots = (long) models.length * spec.workloads().size() * spec.gpuCounts().size()
                * (spec.parallelism().mode() == SweepSpec.Mode.EXPLICIT ? spec.parallelism().plans().size() : 1);
        this.planCache = new InferencePlan[(int) Math.min(slots, 1 << 24)][];
        int n = spec.objectives().size();
        this.objective = new double[n];
        this.bestObjective = new double[n];
        this.pointFrontier = new Skyline<>(n);
    }

    /**
     * The valid inference plans of one (model, workload, GPU count) in a fixed order: tp, then pp, then ep from the
     * search lists, with tp x ep x pp within the cluster and the engine's own shape rules ({@link InferenceStep#check}:
     * ep 1 for dense models, ep dividing the experts); dp fills the cluster with replicas.
     */
    static InferencePlan[] enumerate(ModelSpec model, int gpuCount, SweepSpec.Workload w, SweepSpec.Parallelism s) {
        List<InferencePlan> out = new ArrayList<>();
        for (int tp : s.tp()) {
            for (int pp : s.pp()) {
                for (int ep : s.ep()) {
                    long replica = (long) tp * pp * ep;
                    if (replica > gpuCount) {
                        continue;
                    }
                    InferencePlan plan = new InferencePlan(tp, pp, ep, (int) (gpuCount / replica),
                            w.weightPrecision(), w.activationPrecision(), w.kvCachePrecision(), w.cudaGraphs(),
                            s.flashAttention());
                    if (InferenceStep.check(model, plan).isEmpty()) {
                        out.add(plan);
                    }
                }
            }
        }
        return out.toArray(new InferencePlan[0]);
    }

    /** The plans of a point (cached). */
    InferencePlan[] plans(int[] c) {
        boolean explicit = spec.parallelism().mode() == SweepSpec.Mode.EXPLICIT;
        int slot = SweepEvaluator.planSlot(spec, c);
        InferencePlan[] cached = slot < planCache.length ? planCache[slot] : null;
        if (cached != null) {
            return cached;
        }
        int gpus = spec.gpuCounts().get(c[Grid.GPU_COUNT]);
        SweepSpec.Workload w = spec.workloads().get(c[Grid.WORKLOAD]);
        InferencePlan[] plans;
        if (explicit) {
            SweepSpec.ExplicitPlan e = spec.parallelism().plans().get(c[Grid.PLAN]);
            int replica = e.tp() * e.pp() * e.ep();
            // dp 0 = fill the cluster; a replica larger than the cluster still runs once, and the engine reports
            // the GPU shortfall (status gpu_count) with the numbers.
            int dp = e.dp() > 0 ? e.dp() : Math.max(1, gpus / replica);
            plans = new InferencePlan[]{new InferencePlan(e.tp(), e.pp(), e.ep(), dp,
                    w.weightPrecision(), w.activationPrecision(), w.kvCachePrecision(), w.cudaGraphs(),
                    spec.parallelism().flashAttention())};
        } else {
            plans = enumerate(models[c[Grid.MODEL]], gpus, w, spec.parallelism());
        }
        if (slot < planCache.length) {
            planCache[slot] = plans;
        }
        return plans;
    }

    /** Evaluates the point {@code p} (coordinates, model, workload, hardware already set) and emits its rows. */
    void evaluate(EvaluatedPoint p, SystemSpec system, GpuHourCost hour, double fabricUsd, SweepEvaluator.Sink sink) {
        int[] c = p.coords;
        InferenceWorkload workload = workloads[c[Grid.WORKLOAD]];
        InferencePlan[] plans = plans(c);
        boolean explicit = spec.parallelism().mode() == SweepSpec.Mode.EXPLICIT;
        boolean keepFrontier = !explicit && spec.parallelism().keep() == SweepSpec.Keep.FRONTIER;
        double tokensBudget = spec.cost().tokens();
        p.plan = null;
        p.result = null;

        int best = -1;
        InferenceResult bestResult = null;
        int miss = -1;
        InferenceResult missResult = null;
        int missRank = Integer.MAX_VALUE;
        double missBytes = Double.POSITIVE_INFINITY;
        String missDetail = null;
        pointFrontier.clear();
        for (int i = 0; i < plans.length; i++) {
            InferencePlan plan = plans[i];
            int planIndex = explicit ? c[Grid.PLAN] : i;
            if (plan == null) {
                continue;
            }
            InferenceResult r = step.evaluate(p.model, system, plan, workload);
            owner.countEvaluation();
            if (!r.feasible()) {
                int rank = r.infeasibility() == Infeasibility.MEMORY_CAPACITY ? 1 : 2;
                double bytes = rank == 1 ? r.totalMemoryBytes() : Double.POSITIVE_INFINITY;
                if (rank < missRank || (rank == missRank && bytes < missBytes)) {
                    miss = planIndex;
                    missResult = r;
                    missRank = rank;
                    missBytes = bytes;
                    missDetail = null; // the result's own text, formatted only if this miss is emitted
                }
                continue;
            }
            Metric.fillInference(metrics, r, plan, system.chip(), p.gpuCount);
            CostColumns.fill(metrics, hour, p.gpuCount, fabricUsd, tokensBudget);
            SweepSpec.Bound broken = owner.broken(metrics);
            if (broken != null) {
                if (missRank > 0) {
                    miss = planIndex;
                    missResult = r;
                    missRank = 0;
                    missDetail = broken.describe();
                }
                continue;
            }
            owner.objectiveVector(metrics, objective);
            if (keepFrontier) {
                final int pi = planIndex;
                pointFrontier.offer(objective, p.pointIndex, planIndex, () -> new Candidate(pi, r, metrics.clone()));
            } else if (best < 0 || SweepEvaluator.lexicographicallyBetter(objective, bestObjective)) {
                best = planIndex;
                bestResult = r;
                System.arraycopy(objective, 0, bestObjective, 0, objective.length);
                System.arraycopy(metrics, 0, p.metrics, 0, metrics.length);
            }
        }

        if (keepFrontier && pointFrontier.size() > 0) {
            owner.count(PointStatus.OK);
            for (Skyline.Entry<Candidate> e : pointFrontier.entries()) {
                Candidate cand = e.payload();
                System.arraycopy(cand.metrics(), 0, p.metrics, 0, p.metrics.length);
                emit(p, sink, cand.planIndex(), plans[cand.planIndex()], cand.result(), PointStatus.OK, "");
            }
            return;
        }
        if (best >= 0) {
            owner.count(PointStatus.OK);
            emit(p, sink, best, plans[explicit ? 0 : best], bestResult, PointStatus.OK, "");
            return;
        }
        PointStatus status;
        InferencePlan missPlan = miss < 0 ? null : plans[explicit ? 0 : miss];
        if (missResult != null) {
            status = missRank == 0 ? PointStatus.CONSTRAINT : PointStatus.of(missResult.infeasibility());
            if (missRank == 0) {
                Metric.fillInference(p.metrics, missResult, missPlan, system.chip(), p.gpuCount);
                CostColumns.fill(p.metrics, hour, p.gpuCount, fabricUsd, tokensBudget);
            } else {
                Metric.fillUnevaluated(p.metrics, system.chip(), p.gpuCount);
                if (missResult.infeasibility() == Infeasibility.MEMORY_CAPACITY) {
                    Metric.fillInferenceMemory(p.metrics, missResult, system.chip(), p.gpuCount);
                }
                CostColumns.fillHardware(p.metrics, hour, p.gpuCount, fabricUsd);
            }
            String detail = missDetail != null ? missDetail : missResult.detail();
            emit(p, sink, miss, missPlan, missResult, status, detail == null ? "" : detail);
        } else {
            Metric.fillUnevaluated(p.metrics, system.chip(), p.gpuCount);
            CostColumns.fillHardware(p.metrics, hour, p.gpuCount, fabricUsd);
            String detail = "no plan in the search lists fits this model and GPU count (tp x ep x pp <= gpu_count, "
                    + "heads, kv heads, ffn and layers divisible, ep 1 for dense models and dividing the experts)";
            status = PointStatus.NO_VALID_PLAN;
            emit(p, sink, -1, null, null, status, detail);
        }
        owner.count(status);
    }

    private static void emit(EvaluatedPoint p, SweepEvaluator.Sink sink, int planIndex, InferencePlan plan,
                             InferenceResult r, PointStatus status, String detail) {
        p.planIndex = planIndex;
        p.inferencePlan = plan;
        p.inferenceResult = r;
        p.plan = null;
        p.result = null;
        p.status = status;
        p.detail = detail;
        sink.accept(p);
    }
}
