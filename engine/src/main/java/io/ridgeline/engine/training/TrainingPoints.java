package io.ridgeline.engine.training;

import io.ridgeline.engine.evaluation.PlanPoints;
import io.ridgeline.engine.evaluation.PlanResult;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.sweep.Grid;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.List;

/**
 * The training phase behind the evaluator: a point's plans are the {@link PlanSpace} search list, or its explicit
 * plan with {@code dp} filling the cluster; each plan is one {@link TrainingStep} evaluation. The phase's software
 * stack sets the plans' DP overlap and attention kernel (TrainingBehaviour: grad_reduce_overlap, attention). Plan
 * lists are built
 * once per (model, workload, GPU count[, explicit plan]) and cached; the step keeps its per-system caches.
 */
final class TrainingPoints extends PlanPoints<TrainingPlan> {
    private final TrainingStep step;
    /** Per workload: the training stack's mechanisms (null for inference workloads). */
    private final TrainingBehaviour[] software;

    private final StackCatalog stacks;

    TrainingPoints(SweepSpec spec, ModelSpec[] models, HardwareCatalog hardware, StackCatalog stacks) {
        this(spec, new TrainingStep(hardware), stacks);
    }

    private TrainingPoints(SweepSpec spec, TrainingStep step, StackCatalog stacks) {
        super(spec);
        this.step = step;
        this.stacks = stacks;
        this.software = new TrainingBehaviour[spec.workloads().size()];
        for (int i = 0; i < software.length; i++) {
            SweepSpec.Workload w = spec.workloads().get(i);
            if (!w.inference()) {
                software[i] = stacks.profile(w.software()).training();
            }
        }
    }

    /** Another spec's points on the same step (its per-chip and per-system caches) and stacks. */
    @Override
    public TrainingPoints over(SweepSpec other, ModelSpec[] models) {
        return new TrainingPoints(other, step, stacks);
    }

    /** The search list, or a one-element array with the explicit plan (null if dp is not whole). */
    @Override
    protected TrainingPlan[] build(ResultRow p) {
        SweepSpec.Workload w = p.workload();
        int gpus = p.gpuCount();
        TrainingBehaviour sw = software[p.coord(Grid.WORKLOAD)];
        if (explicit) {
            SweepSpec.ExplicitPlan e = explicitPlan(p);
            int tpppcp = e.tp() * e.pp() * e.cp();
            int dp = e.dp() > 0 ? e.dp() : (gpus % tpppcp == 0 ? gpus / tpppcp : 0);
            return new TrainingPlan[]{dp == 0 ? null : new TrainingPlan(e.tp(), e.pp(), dp, e.cp(), e.ep(), e.sp(),
                    e.vpp(), e.zero(), e.microBatch(), w.globalBatch(), e.recompute(), e.precision(), sw)};
        }
        return PlanSpace.enumerate(p.model(), w.seqLen(), gpus, w.globalBatch(), spec.parallelism(), sw);
    }

    @Override
    protected PlanResult run(ResultRow p, SystemSpec system, TrainingPlan plan) {
        return step.evaluate(p.model(), p.workload().seqLen(), system, plan);
    }

    @Override
    protected void fill(ResultRow p, TrainingPlan plan, PlanResult r, double[] metrics) {
        SweepSpec.Workload w = p.workload();
        TrainingColumns.fill(metrics, (TrainingResult) r, p.chip(), p.gpuCount(),
                (double) w.seqLen() * w.globalBatch());
    }

    @Override
    public void fillInfeasible(ResultRow p, PlanResult r, double[] metrics) {
        TrainingColumns.fillMemory(metrics, (TrainingResult) r);
    }

    @Override
    public void writeWorkload(ResultRow p) {
        p.set(ResultRow.Text.SOFTWARE, p.workload().software());
    }

    @Override
    protected void write(TrainingPlan plan, ResultRow row) {
        TrainingColumns.write(plan, row);
    }

    @Override
    protected void shapeProblems(ResultRow p, TrainingPlan plan, List<InputError> out) {
        ShapeRules.training(p.model(), p.workload().seqLen(), plan, out);
    }

    @Override
    protected InputError gpuProblem(ResultRow p, TrainingPlan plan) {
        return plan.gpus() == p.gpuCount() ? null : InputError.of("training plan", "plan.dp", "tp x pp x dp x cp = "
                + "gpu_count " + p.gpuCount(), plan.tp() + " x " + plan.pp() + " x " + plan.dp() + " x " + plan.cp()
                + " = " + plan.gpus());
    }

    @Override
    public String noPlan() {
        return "no plan in the search lists divides this model, GPU count and batch";
    }

    @Override
    public InputError wholeReplicas(int gpus, SweepSpec.ExplicitPlan e) {
        return ShapeRules.wholeReplicas(gpus, e.tp() * e.pp() * e.cp(), "tp x pp x cp");
    }
}
