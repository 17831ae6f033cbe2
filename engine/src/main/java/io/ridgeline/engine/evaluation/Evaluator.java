package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.sweep.Grid;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The engine's one evaluation path: {@code evaluate(point) -> rows}, for every front end (sweeps on Spark, {@code eval}
 * of a one-point spec, studies; {@code validate} and {@code calibrate} read a measured case's result with
 * {@link #result}). A point is a grid point of a {@link SweepSpec}; its rows are the plan a search keeps (the best
 * eligible one, or every plan of the point's own frontier), the explicit plan, or the point's closest miss.
 *
 * <p>Per grid point: the evaluator resolves the point (model, workload, system and its cost, {@link Hardware}),
 * hands each plan to the point's phase ({@link PhaseModel}: training or inference), adds the TCO columns
 * ({@link CostColumns}), checks the constraints, and lets {@link PlanSelection} choose. When no plan is eligible the
 * point is emitted once with the status of its closest miss: a plan that only breaks a constraint, else the plan
 * needing the least memory, else the first plan's problem.
 *
 * <p>Not thread-safe: make one per thread or Spark partition. It holds the engines' per-partition caches, resolved
 * catalogue entries and reused buffers, so the hot loop allocates only the engines' result records and whatever a
 * sink keeps.
 */
public final class Evaluator {
    /** Receives the rows of a point; the row object is reused after the call returns. */
    @FunctionalInterface
    public interface Sink {
        void accept(ResultRow row);
    }

    /** A change of every system the evaluator builds (once per hardware point): what a sensitivity perturbs. */
    @FunctionalInterface
    public interface Variant {
        Variant NONE = s -> s;

        SystemSpec apply(SystemSpec system);
    }

    private final SweepSpec spec;
    private final Grid grid;
    private final ModelSpec[] models;
    private final Hardware hardware;
    private final PhaseModel.Points[] phases = new PhaseModel.Points[SweepSpec.Phase.values().length];
    private final boolean explicit;
    private final SweepSpec.Bound[] bounds;
    private final Objectives objectives;
    private final ResultRow row;
    private final double[] metrics = new double[Metric.values().length];
    private final double[] objective;
    private final PlanSelection<PlanResult> selection;
    private final long[] statusCounts = new long[PointStatus.values().length];
    private long evaluations;
    private boolean timeMemoryMisses;
    private final ExplicitPlanProblems planProblems;
    /** What the row's point cells were last written for. */
    private SystemSpec writtenSystem;
    private SweepSpec.Workload writtenWorkload;
    private ModelSpec writtenModel;
    /** The energy split and sensitivities of emitted rows; null in variant evaluators (they serve an analysis). */
    private final RowAnalysis analysis;
    /** The system of the point being evaluated. */
    private SystemSpec system;
    /** Per plan of the point last evaluated: tokens/s when it ran (NaN when not), and whether it missed memory. */
    private double[] planRates = new double[0];
    private boolean[] planMemoryMisses = new boolean[0];
    private int lastPlans;

    /** On the bundled catalogues: a spec with {@code calibration:} is evaluated via calibration.SweepCalibration. */
    public Evaluator(SweepSpec spec) {
        this(spec, ModelCatalog.bundled(), HardwareCatalog.bundled(), StackCatalog.bundled(), null);
    }

    /**
     * An evaluator on these catalogues: a calibration profile's (engine.calibration Catalogs) replace the bundled
     * hardware families, scale-out networks and software stacks for every point, built once.
     */
    public Evaluator(SweepSpec spec, ModelCatalog modelCatalog, HardwareCatalog hardwareCatalog,
                     StackCatalog stackCatalog) {
        this(spec, modelCatalog, hardwareCatalog, stackCatalog, null);
    }

    /**
     * An evaluator whose every system is {@code variant} of the spec's (a sensitivity's improved hardware); it adds
     * no analysis columns.
     */
    public Evaluator(SweepSpec spec, ModelCatalog modelCatalog, HardwareCatalog hardwareCatalog, Variant variant) {
        this(spec, modelCatalog, hardwareCatalog, StackCatalog.bundled(), variant);
    }

    public Evaluator(SweepSpec spec, ModelCatalog modelCatalog, HardwareCatalog hardwareCatalog,
                     StackCatalog stackCatalog, Variant variant) {
        this(spec, spec.models().stream().map(modelCatalog::model).toArray(ModelSpec[]::new), modelCatalog,
                hardwareCatalog, stackCatalog, variant, null);
    }

    /** With {@code engines}: the phases run on those points' engines ({@link PointEvaluators}), else on new ones. */
    Evaluator(SweepSpec spec, ModelSpec[] models, ModelCatalog modelCatalog, HardwareCatalog hardwareCatalog,
              StackCatalog stackCatalog, Variant variant, PhaseModel.Points[] engines) {
        this.spec = spec;
        this.grid = spec.grid();
        this.models = models;
        this.hardware = new Hardware(spec, hardwareCatalog, variant == null ? Variant.NONE : variant);
        RowAnalysis.Provider provider = variant == null ? RowAnalysis.provider() : null;
        this.analysis = provider == null ? null : provider.create(spec, modelCatalog, hardwareCatalog, stackCatalog);
        for (SweepSpec.Workload w : spec.workloads()) { // only the phases the spec has
            int at = w.phase().ordinal();
            if (phases[at] == null) {
                phases[at] = engines != null && engines[at] != null ? engines[at].over(spec, models)
                        : PhaseModel.all().get(w.phase()).points(spec, models, hardwareCatalog, stackCatalog);
            }
        }
        this.explicit = spec.parallelism().mode() == SweepSpec.Mode.EXPLICIT;
        this.bounds = spec.constraints().bounds().toArray(new SweepSpec.Bound[0]);
        this.objectives = new Objectives(spec.objectives());
        this.objective = new double[objectives.size()];
        boolean frontier = !explicit && spec.parallelism().keep() == SweepSpec.Keep.FRONTIER;
        this.row = new ResultRow(grid.axes());
        this.planProblems = new ExplicitPlanProblems(spec, explicit);
        // the best plan's metrics go straight into the row
        this.selection = new PlanSelection<>(objectives.size(), row.metrics, !frontier, frontier);
    }

    /**
     * Reports the times a plan would take when it only misses memory (a study of what capacity buys), instead of
     * leaving them null as sweep rows do: the row keeps status memory_capacity and gains every metric.
     */
    public Evaluator timeMemoryMisses(boolean on) {
        timeMemoryMisses = on;
        return this;
    }

    public Grid grid() {
        return grid;
    }

    /** Plans a search tries at this point (1 in explicit mode); for estimates. */
    public int plansAt(long index) {
        ResultRow p = row;
        grid.decode(index, p.coords);
        resolveWorkload(p);
        return phase(p).plans(p);
    }

    /** The rows of grid point {@code index}, copied (for front ends that keep them; sweeps use the sink). */
    public List<ResultRow> evaluate(long index) {
        List<ResultRow> out = new ArrayList<>();
        evaluate(index, r -> out.add(r.copy()));
        return out;
    }

    /** The sweep's objectives (minimisation vectors of metrics rows). */
    public Objectives objectives() {
        return objectives;
    }

    /**
     * Why the explicit plan of grid point {@code index} cannot run there, as errors on the plan's fields ({@code
     * plan.tp} ...); empty when it can, or in search mode (a search skips what does not fit). Front ends that take
     * one point refuse such a plan where a sweep writes a row with its status.
     */
    public List<InputError> problems(long index) {
        if (!explicit) {
            return List.of();
        }
        ResultRow p = row;
        grid.decode(index, p.coords);
        resolveWorkload(p);
        return planProblems.of(p, phase(p));
    }

    /** Evaluates grid point {@code index} and hands its rows to {@code sink}. */
    public void evaluate(long index, Sink sink) {
        ResultRow p = row;
        int[] c = p.coords;
        grid.decode(index, c);
        p.pointIndex = index;
        resolveWorkload(p);
        SystemSpec system = hardware.system(c);
        this.system = system;
        PhaseModel.Points phase = phase(p);
        if (system != writtenSystem || p.workload != writtenWorkload || p.model != writtenModel) {
            // the point's cells change with its hardware, workload or model (explicit plans vary fastest)
            hardware.writePoint(p, system);
            p.clearWorkload();
            phase.writeWorkload(p);
            writtenSystem = system;
            writtenWorkload = p.workload;
            writtenModel = p.model;
        }
        double tokensBudget = spec.cost().tokens();
        int plans = phase.plans(p);
        PlanSelection<PlanResult> s = selection;
        s.clear();
        if (plans > planRates.length) {
            planRates = new double[Math.max(plans, 2 * planRates.length)];
            planMemoryMisses = new boolean[planRates.length];
        }
        lastPlans = plans;
        for (int i = 0; i < plans; i++) {
            int planIndex = explicit ? c[Grid.PLAN] : i;
            planRates[i] = Double.NaN;
            planMemoryMisses[i] = false;
            PlanResult r = phase.evaluate(p, system, i);
            if (r == null) {
                continue; // an explicit plan that cannot exist here: reported below
            }
            evaluations++;
            if (!r.feasible()) {
                boolean memory = r.infeasibility() == Infeasibility.MEMORY_CAPACITY;
                planMemoryMisses[i] = memory;
                s.infeasible(planIndex, r, memory, r.totalMemoryBytes());
                continue;
            }
            phase.fillMetrics(p, i, r, metrics);
            CostColumns.fill(metrics, hardware.hourCost(), p.gpuCount, hardware.fabricCapexUsd(), tokensBudget);
            planRates[i] = metrics[Metric.TOKENS_PER_S.ordinal()];
            SweepSpec.Bound broken = broken(metrics);
            if (broken != null) {
                s.outsideBounds(planIndex, r, broken.describe());
                continue;
            }
            objectives.vector(metrics, objective);
            s.eligible(index, planIndex, r, objective, metrics);
        }
        emit(p, phase, sink, tokensBudget);
    }

    /** Plans of the point last given to {@link #evaluate(long, Sink)} (its search list, or 1). */
    public int lastPlans() {
        return lastPlans;
    }

    /** Tokens/s of plan {@code i} of the point last evaluated, whether or not it met the constraints; NaN when it
     * could not run or did not fit (valid until the next {@link #evaluate(long, Sink)}). */
    public double planRate(int i) {
        return planRates[i];
    }

    /** Whether plan {@code i} of the point last evaluated missed only memory capacity. */
    public boolean planMissedMemory(int i) {
        return planMemoryMisses[i];
    }

    /**
     * One plan of grid point {@code index} on this evaluator's hardware, its metrics (phase and TCO columns) into
     * {@code metricsOut}: what a sensitivity needs. Returns whether the plan is eligible (runs, fits and meets the
     * constraints); {@code metricsOut} is filled when it runs and fits, NaN otherwise.
     */
    public boolean evaluatePlan(long index, int planIndex, double[] metricsOut) {
        Arrays.fill(metricsOut, Double.NaN);
        PlanResult r = evaluateOne(index, planIndex);
        if (r == null || !r.feasible()) {
            return false;
        }
        phase(row).fillMetrics(row, explicit ? 0 : planIndex, r, metricsOut);
        CostColumns.fill(metricsOut, hardware.hourCost(), row.gpuCount, hardware.fabricCapexUsd(), spec.cost().tokens());
        return broken(metricsOut) == null;
    }

    /**
     * The phase's own result (training.TrainingResult, inference.InferenceResult) of the explicit plan of grid point
     * {@code index}, one engine evaluation: what front ends read that score a plan against a measurement (validate,
     * calibrate) rather than write rows. Null when that plan cannot exist at the point's GPU count.
     */
    public PlanResult result(long index) {
        if (!explicit) {
            throw new IllegalStateException("result(index) reads an explicit plan; this spec searches");
        }
        return evaluateOne(index, 0);
    }

    /** Plan {@code planIndex} of grid point {@code index} evaluated once; null when it does not exist there. */
    private PlanResult evaluateOne(long index, int planIndex) {
        ResultRow p = row;
        int[] c = p.coords;
        grid.decode(index, c);
        resolveWorkload(p);
        SystemSpec s = hardware.system(c);
        p.chip = s.chip();
        writtenSystem = null; // the row's point cells are not this point's: rewrite them on the next evaluate
        PhaseModel.Points phase = phase(p);
        int plans = phase.plans(p);
        if (!explicit && (planIndex < 0 || planIndex >= plans)) {
            return null;
        }
        evaluations++;
        return phase.evaluate(p, s, explicit ? 0 : planIndex);
    }

    /** Engine evaluations so far (plans evaluated, over all points). */
    public long evaluations() {
        return evaluations;
    }

    private void emit(ResultRow p, PhaseModel.Points phase, Sink sink, double tokensBudget) {
        PlanSelection<PlanResult> s = selection;
        if (s.frontierSize() > 0) {
            statusCounts[PointStatus.OK.ordinal()]++;
            for (var e : s.frontier()) {
                PlanSelection.Candidate<PlanResult> cand = e.payload();
                System.arraycopy(cand.metrics(), 0, p.metrics, 0, p.metrics.length);
                emit(p, phase, sink, cand.planIndex(), cand.item(), PointStatus.OK, "");
            }
            return;
        }
        if (s.best() >= 0) {
            statusCounts[PointStatus.OK.ordinal()]++; // its metrics are in the row already
            emit(p, phase, sink, s.best(), s.bestItem(), PointStatus.OK, "");
            return;
        }
        PointStatus status;
        PlanResult miss = s.missItem();
        if (miss != null) {
            int list = explicit ? 0 : s.miss();
            boolean timed = timeMemoryMisses && miss.infeasibility() == Infeasibility.MEMORY_CAPACITY;
            if (s.missBreaksAConstraint() || timed) {
                status = timed ? PointStatus.MEMORY_CAPACITY : PointStatus.CONSTRAINT;
                phase.fillMetrics(p, list, miss, p.metrics);
                CostColumns.fill(p.metrics, hardware.hourCost(), p.gpuCount, hardware.fabricCapexUsd(), tokensBudget);
            } else {
                status = PointStatus.of(miss.infeasibility());
                Metric.fillUnevaluated(p.metrics, p.chip, p.gpuCount);
                phase.fillInfeasible(p, miss, p.metrics);
                CostColumns.fillHardware(p.metrics, hardware.hourCost(), p.gpuCount, hardware.fabricCapexUsd());
            }
            String detail = s.missDetail() != null ? s.missDetail() : miss.detail();
            emit(p, phase, sink, s.miss(), miss, status, detail == null ? "" : detail);
        } else {
            Metric.fillUnevaluated(p.metrics, p.chip, p.gpuCount);
            CostColumns.fillHardware(p.metrics, hardware.hourCost(), p.gpuCount, hardware.fabricCapexUsd());
            status = explicit ? PointStatus.PLAN_SHAPE : PointStatus.NO_VALID_PLAN;
            emit(p, phase, sink, explicit ? p.coords[Grid.PLAN] : -1, null, status,
                    explicit ? planProblems.shapeDetail(p, phase) : phase.noPlan());
        }
        statusCounts[status.ordinal()]++;
    }

    /**
     * One row: the plan's cells (none without a result), the bottleneck of a plan that was timed (feasible, or
     * only short of memory), status and detail.
     */
    private void emit(ResultRow p, PhaseModel.Points phase, Sink sink, int planIndex, PlanResult r,
                      PointStatus status, String detail) {
        p.clearPlan();
        if (r != null) {
            phase.writePlan(p, explicit ? 0 : planIndex);
            if (r.feasible() || r.infeasibility() == Infeasibility.MEMORY_CAPACITY) {
                p.set(ResultRow.Text.BOTTLENECK, r.bottleneck().id());
            }
        }
        p.set(ResultRow.Count.PLAN_INDEX, planIndex);
        p.status = status;
        p.set(ResultRow.Text.STATUS, status.id());
        p.set(ResultRow.Text.DETAIL, detail);
        if (analysis != null) {
            evaluations += analysis.analyse(this, p, r, system);
        }
        sink.accept(p);
    }

    /** The points of the spec's phases, null for phases it lacks (their engines, for {@link PointEvaluators}). */
    PhaseModel.Points[] phases() {
        return phases;
    }

    /** Grid points so far by final status, indexed by {@link PointStatus#ordinal()}. */
    public long[] statusCounts() {
        return statusCounts;
    }

    private SweepSpec.Bound broken(double[] m) {
        for (SweepSpec.Bound b : bounds) {
            if (!b.holds(m[b.metric().ordinal()])) {
                return b;
            }
        }
        return null;
    }

    private void resolveWorkload(ResultRow p) {
        int[] c = p.coords;
        p.model = models[c[Grid.MODEL]];
        p.workload = spec.workloads().get(c[Grid.WORKLOAD]);
        p.gpuCount = spec.gpuCounts().get(c[Grid.GPU_COUNT]);
    }

    private PhaseModel.Points phase(ResultRow p) {
        return phases[p.workload.phase().ordinal()];
    }
}
