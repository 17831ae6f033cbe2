package io.ridgeline.engine.sweep;

import io.ridgeline.engine.cost.GpuHourCost;
import io.ridgeline.engine.cost.TcoModel;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.ScaleOutNetwork;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.network.Topology;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.pareto.Skyline;
import io.ridgeline.engine.technology.TechnologyCatalog;
import io.ridgeline.engine.training.TrainingResult;
import io.ridgeline.engine.training.TrainingStep;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.List;

/**
 * Evaluates grid points of one sweep. Not thread-safe: make one per thread or Spark partition (it holds the engine's
 * per-partition caches, the resolved catalogue entries and reusable buffers, so the hot loop allocates only the
 * engine's result records and whatever a sink keeps).
 *
 * <p>Per grid point: an explicit plan is evaluated as is; a search evaluates every plan of {@link PlanSpace} and
 * emits the best eligible one (objectives lexicographic, then the lower plan index) or all plans of the point's own
 * frontier. Eligible = feasible and inside the constraints. When no plan is eligible the point is still emitted once,
 * with the status of its closest miss: a plan that only breaks a constraint, else the plan needing the least memory,
 * else the first plan's shape problem. Inference workloads go through {@link InferencePoints} with the same rules.
 * Every row also gets the TCO columns ({@link CostColumns}) from the point's $/GPU-hour, computed once per hardware
 * point with the fabric's capex when the point has a topology.
 */
public final class SweepEvaluator {
    /** Receives output candidates; the point object is reused after the call returns. */
    @FunctionalInterface
    public interface Sink {
        void accept(EvaluatedPoint point);
    }

    private final SweepSpec spec;
    private final Grid grid;
    private final ModelSpec[] models;
    private final Chip[] chips;
    private final ScaleOutNetwork[][] networks;
    private final SystemSpec[] systems;
    private final GpuHourCost[] hourCosts;
    private final double[] fabricUsd;
    private final DerivedDesign[] designs;
    private final TcoModel tco;
    private final TechnologyCatalog tech = TechnologyCatalog.bundled();
    private final InferencePoints inference;
    /** Set by {@link #system}: the cost of the point's hardware. */
    private GpuHourCost hourCost;
    private double fabricCapexUsd;
    private final TrainingPlan[][] planCache;
    private final SweepSpec.Bound[] bounds;
    private final int[] objectiveMetrics;
    private final boolean[] objectiveMax;
    private final TrainingStep step = new TrainingStep();
    private final EvaluatedPoint point;
    private final double[] metrics = new double[Metric.values().length];
    private final double[] objective;
    private final double[] bestObjective;
    private final Skyline<Candidate> pointFrontier;
    private final long[] statusCounts = new long[PointStatus.values().length];
    private long evaluations;

    private record Candidate(int planIndex, TrainingResult result, double[] metrics) {
    }

    public SweepEvaluator(SweepSpec spec) {
        this(spec, ModelCatalog.bundled(), HardwareCatalog.bundled());
    }

    public SweepEvaluator(SweepSpec spec, ModelCatalog modelCatalog, HardwareCatalog hardware) {
        this.spec = spec;
        this.grid = spec.grid();
        this.models = spec.models().stream().map(modelCatalog::model).toArray(ModelSpec[]::new);
        this.chips = new Chip[spec.chips().size()];
        this.designs = new DerivedDesign[chips.length];
        for (int i = 0; i < chips.length; i++) {
            String id = spec.chips().get(i);
            DerivedDesign design = null;
            for (DerivedDesign d : spec.derived()) {
                if (d.id().equals(id)) {
                    design = d;
                }
            }
            designs[i] = design;
            chips[i] = design == null ? hardware.chip(id) : design.build(tech);
        }
        this.networks = new ScaleOutNetwork[chips.length][spec.scaleOuts().size()];
        for (int c = 0; c < chips.length; c++) {
            for (int n = 0; n < spec.scaleOuts().size(); n++) {
                String id = spec.scaleOuts().get(n);
                networks[c][n] = id.equals(SweepSpec.DEFAULT) ? hardware.defaultNetwork(chips[c]) : hardware.network(id);
            }
        }
        long hardwarePoints = (long) chips.length * spec.scaleOuts().size() * spec.scaleOutGbps().size()
                * spec.scaleUpDomains().size() * spec.topologies().size() * spec.gpuCounts().size();
        this.systems = new SystemSpec[(int) Math.min(hardwarePoints, 1 << 24)];
        this.hourCosts = new GpuHourCost[systems.length];
        this.fabricUsd = new double[systems.length];
        this.tco = new TcoModel(spec.cost().parameters());
        long plansSlots = (long) models.length * spec.workloads().size() * spec.gpuCounts().size()
                * (spec.parallelism().mode() == SweepSpec.Mode.EXPLICIT ? spec.parallelism().plans().size() : 1);
        this.planCache = new TrainingPlan[(int) Math.min(plansSlots, 1 << 24)][];
        this.bounds = spec.constraints().bounds().toArray(new SweepSpec.Bound[0]);
        List<SweepSpec.Objective> objs = spec.objectives();
        this.objectiveMetrics = new int[objs.size()];
        this.objectiveMax = new boolean[objs.size()];
        for (int i = 0; i < objs.size(); i++) {
            objectiveMetrics[i] = objs.get(i).metric().ordinal();
            objectiveMax[i] = objs.get(i).goal() == io.ridgeline.engine.pareto.Goal.MAX;
        }
        this.objective = new double[objs.size()];
        this.bestObjective = new double[objs.size()];
        this.pointFrontier = new Skyline<>(objs.size());
        this.point = new EvaluatedPoint(grid.axes());
        this.inference = new InferencePoints(spec, models, this);
    }

    public Grid grid() {
        return grid;
    }

    /** Engine evaluations so far (plans evaluated, over all points). */
    public long evaluations() {
        return evaluations;
    }

    /** Grid points so far by final status, indexed by {@link PointStatus#ordinal()}. */
    public long[] statusCounts() {
        return statusCounts;
    }

    /** Plans a search tries at this point (1 in explicit mode); for estimates. */
    public int plansAt(long index) {
        grid.decode(index, point.coords);
        if (spec.parallelism().mode() == SweepSpec.Mode.EXPLICIT) {
            return 1;
        }
        return spec.workloads().get(point.coords[Grid.WORKLOAD]).inference() ? inference.plans(point.coords).length
                : plans(point.coords).length;
    }

    /** Turns a metrics row into the objective vector to minimise. */
    public void objectiveVector(double[] metricsRow, double[] out) {
        for (int i = 0; i < objectiveMetrics.length; i++) {
            double v = metricsRow[objectiveMetrics[i]];
            out[i] = objectiveMax[i] ? -v : v;
        }
    }

    public int objectiveCount() {
        return objectiveMetrics.length;
    }

    /** Evaluates grid point {@code index} and hands its output candidates to {@code sink}. */
    public void evaluate(long index, Sink sink) {
        EvaluatedPoint p = point;
        int[] c = p.coords;
        grid.decode(index, c);
        p.pointIndex = index;
        p.model = models[c[Grid.MODEL]];
        p.workload = spec.workloads().get(c[Grid.WORKLOAD]);
        SystemSpec system = system(c);
        p.chip = system.chip();
        p.scaleOut = system.scaleOut().id();
        p.scaleOutGbps = system.scaleOut().bytesPerSecond() * 8 / 1e9;
        p.scaleUpDomain = system.scaleUpDomain();
        p.gpuCount = system.gpuCount();
        p.design = designs[c[Grid.CHIP]];
        p.topology = spec.topologies().get(c[Grid.TOPOLOGY]).id();
        GpuHourCost hour = hourCost;
        double fabric = fabricCapexUsd;
        if (p.workload.inference()) {
            inference.evaluate(p, system, hour, fabric, sink);
            return;
        }
        p.inferencePlan = null;
        p.inferenceResult = null;
        double tokensBudget = spec.cost().tokens();
        double tokensPerStep = (double) p.workload.seqLen() * p.workload.globalBatch();
        TrainingPlan[] plans = plans(c);
        boolean explicit = spec.parallelism().mode() == SweepSpec.Mode.EXPLICIT;
        boolean keepFrontier = !explicit && spec.parallelism().keep() == SweepSpec.Keep.FRONTIER;

        int best = -1;
        TrainingResult bestResult = null;
        double[] bestMetrics = p.metrics;
        int miss = -1;
        TrainingResult missResult = null;
        int missRank = Integer.MAX_VALUE;
        double missBytes = Double.POSITIVE_INFINITY;
        String missDetail = null;
        pointFrontier.clear();
        for (int i = 0; i < plans.length; i++) {
            TrainingPlan plan = plans[i];
            int planIndex = explicit ? c[Grid.PLAN] : i;
            if (plan == null) {
                continue; // explicit plan whose dp cannot fill the cluster: handled below
            }
            TrainingResult r = step.evaluate(p.model, p.workload.seqLen(), system, plan);
            evaluations++;
            if (!r.feasible()) {
                int rank = r.infeasibility() == io.ridgeline.engine.evaluation.Infeasibility.MEMORY_CAPACITY ? 1 : 2;
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
            Metric.fill(metrics, r, system.chip(), p.gpuCount, tokensPerStep);
            CostColumns.fill(metrics, hour, p.gpuCount, fabric, tokensBudget);
            SweepSpec.Bound broken = broken(metrics);
            if (broken != null) {
                if (missRank > 0) {
                    miss = planIndex;
                    missResult = r;
                    missRank = 0;
                    missDetail = broken.describe();
                }
                continue;
            }
            objectiveVector(metrics, objective);
            if (keepFrontier) {
                final int pi = planIndex;
                pointFrontier.offer(objective, index, planIndex, () -> new Candidate(pi, r, metrics.clone()));
            } else if (best < 0 || lexicographicallyBetter(objective, bestObjective)) {
                best = planIndex;
                bestResult = r;
                System.arraycopy(objective, 0, bestObjective, 0, objective.length);
                System.arraycopy(metrics, 0, bestMetrics, 0, metrics.length);
            }
        }

        if (keepFrontier && pointFrontier.size() > 0) {
            statusCounts[PointStatus.OK.ordinal()]++;
            for (Skyline.Entry<Candidate> e : pointFrontier.entries()) {
                Candidate cand = e.payload();
                System.arraycopy(cand.metrics(), 0, p.metrics, 0, p.metrics.length);
                emit(p, sink, cand.planIndex(), plans[cand.planIndex()], cand.result(), PointStatus.OK, "");
            }
            return;
        }
        if (best >= 0) {
            statusCounts[PointStatus.OK.ordinal()]++;
            emit(p, sink, best, plans[explicit ? 0 : best], bestResult, PointStatus.OK, "");
            return;
        }
        PointStatus status;
        if (missResult != null) {
            status = missRank == 0 ? PointStatus.CONSTRAINT : PointStatus.of(missResult.infeasibility());
            if (missRank == 0) {
                Metric.fill(p.metrics, missResult, system.chip(), p.gpuCount, tokensPerStep);
                CostColumns.fill(p.metrics, hour, p.gpuCount, fabric, tokensBudget);
            } else {
                fillInfeasible(p.metrics, missResult, system.chip(), p.gpuCount);
                CostColumns.fillHardware(p.metrics, hour, p.gpuCount, fabric);
            }
            String detail = missDetail != null ? missDetail : missResult.detail();
            emit(p, sink, miss, plans[explicit ? 0 : miss], missResult, status, detail == null ? "" : detail);
        } else {
            Metric.fillUnevaluated(p.metrics, system.chip(), p.gpuCount);
            CostColumns.fillHardware(p.metrics, hour, p.gpuCount, fabric);
            String detail = explicit ? "gpu_count " + p.gpuCount + " is not a multiple of tp x pp x cp"
                    : "no plan in the search lists divides this model, GPU count and batch";
            status = explicit ? PointStatus.PLAN_SHAPE : PointStatus.NO_VALID_PLAN;
            emit(p, sink, explicit ? c[Grid.PLAN] : -1, null, null, status, detail);
        }
        statusCounts[status.ordinal()]++;
    }

    void emit(EvaluatedPoint p, Sink sink, int planIndex, TrainingPlan plan, TrainingResult r,
                      PointStatus status, String detail) {
        p.planIndex = planIndex;
        p.plan = plan;
        p.result = r;
        p.status = status;
        p.detail = detail;
        sink.accept(p);
    }

    /** Memory numbers of an infeasible plan are real (they say by how much it misses); times are not. */
    private static void fillInfeasible(double[] out, TrainingResult r, Chip chip, int gpuCount) {
        Metric.fillUnevaluated(out, chip, gpuCount);
        out[Metric.WEIGHT_BYTES.ordinal()] = r.weightBytes();
        out[Metric.GRADIENT_BYTES.ordinal()] = r.gradientBytes();
        out[Metric.OPTIMIZER_BYTES.ordinal()] = r.optimizerBytes();
        out[Metric.ACTIVATION_BYTES.ordinal()] = r.activationBytes();
        out[Metric.RESERVE_BYTES.ordinal()] = r.reserveBytes();
        out[Metric.HBM_BYTES.ordinal()] = r.totalMemoryBytes();
        if (!Double.isNaN(r.memoryCapacityBytes())) {
            out[Metric.HBM_CAPACITY_BYTES.ordinal()] = r.memoryCapacityBytes();
        }
    }

    SweepSpec.Bound broken(double[] m) {
        for (SweepSpec.Bound b : bounds) {
            if (!b.holds(m[b.metric().ordinal()])) {
                return b;
            }
        }
        return null;
    }

    static boolean lexicographicallyBetter(double[] a, double[] b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] < b[i]) {
                return true;
            }
            if (a[i] > b[i]) {
                return false;
            }
        }
        return false;
    }

    /** Counts a point's final status (for {@link InferencePoints}). */
    void count(PointStatus status) {
        statusCounts[status.ordinal()]++;
    }

    void countEvaluation() {
        evaluations++;
    }

    /** The point's system; also sets {@link #hourCost} and {@link #fabricCapexUsd} for it. */
    private SystemSpec system(int[] c) {
        int slot = ((((c[Grid.CHIP] * spec.scaleOuts().size() + c[Grid.SCALE_OUT]) * spec.scaleOutGbps().size()
                + c[Grid.SCALE_OUT_GBPS]) * spec.scaleUpDomains().size() + c[Grid.SCALE_UP_DOMAIN])
                * spec.topologies().size() + c[Grid.TOPOLOGY]) * spec.gpuCounts().size() + c[Grid.GPU_COUNT];
        SystemSpec s = slot < systems.length ? systems[slot] : null;
        if (s != null) {
            hourCost = hourCosts[slot];
            fabricCapexUsd = fabricUsd[slot];
        } else {
            Chip chip = chips[c[Grid.CHIP]];
            ScaleOutNetwork net = networks[c[Grid.CHIP]][c[Grid.SCALE_OUT]];
            double gbps = spec.scaleOutGbps().get(c[Grid.SCALE_OUT_GBPS]);
            if (gbps > 0) {
                net = net.withGbitPerSecond(gbps);
            }
            s = SystemSpec.of(chip, spec.gpuCounts().get(c[Grid.GPU_COUNT]), net);
            int domain = spec.scaleUpDomains().get(c[Grid.SCALE_UP_DOMAIN]);
            if (domain > 0) {
                s = s.withScaleUpDomain(domain);
            }
            // Sized per GPU count; the loader built every combination once, so this cannot fail on a valid spec.
            Topology topology = spec.topologies().get(c[Grid.TOPOLOGY]).build(s.gpuCount(), s.scaleUpDomain(),
                    networks[c[Grid.CHIP]][c[Grid.SCALE_OUT]].id(), tech);
            if (topology != null) {
                s = s.withScaleOutTopology(topology);
                fabricCapexUsd = topology.capex().totalUsd();
                hourCost = tco.gpuHour(chip.priceUsd(), chip.tdpWatts(), topology.capex(), s.gpuCount());
            } else {
                fabricCapexUsd = Double.NaN;
                hourCost = tco.gpuHour(chip.priceUsd(), chip.tdpWatts());
            }
            if (slot < systems.length) {
                systems[slot] = s;
                hourCosts[slot] = hourCost;
                fabricUsd[slot] = fabricCapexUsd;
            }
        }
        return s;
    }

    /**
     * Where a point's plan list is cached: plans depend on (model, workload, GPU count) and, for explicit plans, on the
     * plan axis too. Shared by the training and the inference plan caches.
     */
    static int planSlot(SweepSpec spec, int[] c) {
        int slot = (c[Grid.MODEL] * spec.workloads().size() + c[Grid.WORKLOAD]) * spec.gpuCounts().size()
                + c[Grid.GPU_COUNT];
        if (spec.parallelism().mode() == SweepSpec.Mode.EXPLICIT) {
            slot = slot * spec.parallelism().plans().size() + c[Grid.PLAN];
        }
        return slot;
    }

    /** The plans of a point: the search list, or a one-element array with the explicit plan (null if dp is not whole). */
    private TrainingPlan[] plans(int[] c) {
        boolean explicit = spec.parallelism().mode() == SweepSpec.Mode.EXPLICIT;
        int slot = planSlot(spec, c);
        TrainingPlan[] cached = slot < planCache.length ? planCache[slot] : null;
        if (cached != null) {
            return cached;
        }
        int gpus = spec.gpuCounts().get(c[Grid.GPU_COUNT]);
        SweepSpec.Workload w = spec.workloads().get(c[Grid.WORKLOAD]);
        TrainingPlan[] plans;
        if (explicit) {
            SweepSpec.ExplicitPlan e = spec.parallelism().plans().get(c[Grid.PLAN]);
            int tpppcp = e.tp() * e.pp() * e.cp();
            int dp = e.dp() > 0 ? e.dp() : (gpus % tpppcp == 0 ? gpus / tpppcp : 0);
            plans = new TrainingPlan[]{dp == 0 ? null : new TrainingPlan(e.tp(), e.pp(), dp, e.cp(), e.ep(), e.sp(),
                    e.vpp(), e.zero(), e.microBatch(), w.globalBatch(), e.recompute(), e.precision(),
                    spec.parallelism().overlapGrad(), spec.parallelism().flashAttention())};
        } else {
            plans = PlanSpace.enumerate(models[c[Grid.MODEL]], w.seqLen(), gpus, w.globalBatch(),
                    spec.parallelism());
        }
        if (slot < planCache.length) {
            planCache[slot] = plans;
        }
        return plans;
    }
}
