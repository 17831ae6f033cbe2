package io.ridgeline.engine.training;

import io.ridgeline.engine.evaluation.PhaseModel;
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

import java.util.ArrayList;
import java.util.List;

/**
 * The training phase behind the evaluator: a point's plans are the {@link PlanSpace} search list, or its explicit
 * plan with {@code dp} filling the cluster; each plan is one {@link TrainingStep} evaluation. The phase's software
 * stack sets the plans' DP overlap and attention kernel (TrainingBehaviour: grad_reduce_overlap, attention). Plan lists are built
 * once per (model, workload, GPU count[, explicit plan]) and cached; the step keeps its per-system caches.
 */
final class TrainingPoints implements PhaseModel.Points {
    private final SweepSpec spec;
    private final TrainingStep step;
    private final TrainingPlan[][] planCache;
    private final boolean explicit;
    /** Per workload: the training stack's mechanisms (null for inference workloads). */
    private final TrainingBehaviour[] software;

    TrainingPoints(SweepSpec spec, ModelSpec[] models, HardwareCatalog hardware) {
        this.spec = spec;
        this.step = new TrainingStep(hardware);
        this.explicit = spec.parallelism().mode() == SweepSpec.Mode.EXPLICIT;
        this.planCache = new TrainingPlan[spec.planSlots()][];
        this.software = new TrainingBehaviour[spec.workloads().size()];
        for (int i = 0; i < software.length; i++) {
            SweepSpec.Workload w = spec.workloads().get(i);
            if (!w.inference()) {
                software[i] = StackCatalog.bundled().profile(w.software()).training();
            }
        }
    }

    @Override
    public int plans(ResultRow p) {
        return plans(p, p.workload()).length;
    }

    /** The search list, or a one-element array with the explicit plan (null if dp is not whole). */
    private TrainingPlan[] plans(ResultRow p, SweepSpec.Workload w) {
        int slot = spec.planSlot(p.coord(Grid.MODEL), p.coord(Grid.WORKLOAD), p.coord(Grid.GPU_COUNT),
                p.coord(Grid.PLAN));
        TrainingPlan[] cached = slot < planCache.length ? planCache[slot] : null;
        if (cached != null) {
            return cached;
        }
        int gpus = p.gpuCount();
        TrainingBehaviour sw = software[p.coord(Grid.WORKLOAD)];
        TrainingPlan[] plans;
        if (explicit) {
            SweepSpec.ExplicitPlan e = spec.parallelism().plans().get(p.coord(Grid.PLAN));
            int tpppcp = e.tp() * e.pp() * e.cp();
            int dp = e.dp() > 0 ? e.dp() : (gpus % tpppcp == 0 ? gpus / tpppcp : 0);
            plans = new TrainingPlan[]{dp == 0 ? null : new TrainingPlan(e.tp(), e.pp(), dp, e.cp(), e.ep(), e.sp(),
                    e.vpp(), e.zero(), e.microBatch(), w.globalBatch(), e.recompute(), e.precision(),
                    sw.gradReduceOverlap(), sw.attention().fused())};
        } else {
            plans = PlanSpace.enumerate(p.model(), w.seqLen(), gpus, w.globalBatch(), spec.parallelism(), sw);
        }
        if (slot < planCache.length) {
            planCache[slot] = plans;
        }
        return plans;
    }

    @Override
    public PlanResult evaluate(ResultRow p, SystemSpec system, int i) {
        TrainingPlan plan = plans(p, p.workload())[i];
        return plan == null ? null : step.evaluate(p.model(), p.workload().seqLen(), system, plan);
    }

    @Override
    public void fillMetrics(ResultRow p, int i, PlanResult r, double[] metrics) {
        SweepSpec.Workload w = p.workload();
        TrainingColumns.fill(metrics, (TrainingResult) r, p.chip(), p.gpuCount(),
                (double) w.seqLen() * w.globalBatch());
    }

    @Override
    public void fillInfeasible(ResultRow p, PlanResult r, double[] metrics) {
        TrainingColumns.fillInfeasible(metrics, (TrainingResult) r);
    }

    @Override
    public void writeWorkload(ResultRow p) {
        p.set(ResultRow.Text.SOFTWARE, p.workload().software());
        p.clear(ResultRow.Count.INPUT_TOKENS).clear(ResultRow.Count.OUTPUT_TOKENS).clear(ResultRow.Count.CONCURRENCY)
                .clear(ResultRow.Flag.CUDA_GRAPHS)
                .set(ResultRow.Text.WEIGHT_PRECISION, null).set(ResultRow.Text.ACTIVATION_PRECISION, null)
                .set(ResultRow.Text.KV_CACHE_PRECISION, null);
    }

    @Override
    public void writePlan(ResultRow p, int i) {
        TrainingColumns.write(plans(p, p.workload())[i], p);
    }

    @Override
    public List<InputError> problems(ResultRow p, int i) {
        List<InputError> out = new ArrayList<>();
        TrainingPlan plan = plans(p, p.workload())[i];
        if (plan == null) {
            SweepSpec.ExplicitPlan e = spec.parallelism().plans().get(p.coord(Grid.PLAN));
            ShapeRules.model(p.model(), e.tp(), e.pp(), e.vpp(), e.ep(), "training plan", out);
            out.add(ShapeRules.wholeReplicas(p.gpuCount(), e.tp() * e.pp() * e.cp(), "tp x pp x cp"));
            return out;
        }
        ShapeRules.training(p.model(), p.workload().seqLen(), plan, out);
        if (plan.gpus() != p.gpuCount()) {
            out.add(InputError.of("training plan", "plan.dp", "tp x pp x dp x cp = gpu_count " + p.gpuCount(),
                    plan.tp() + " x " + plan.pp() + " x " + plan.dp() + " x " + plan.cp() + " = " + plan.gpus()));
        }
        return out;
    }

    @Override
    public String noPlan(ResultRow p, boolean explicit) {
        if (explicit) {
            SweepSpec.ExplicitPlan e = spec.parallelism().plans().get(p.coord(Grid.PLAN));
            return "gpu_count " + p.gpuCount() + " is not a multiple of tp x pp x cp = " + e.tp() * e.pp() * e.cp();
        }
        return "no plan in the search lists divides this model, GPU count and batch";
    }
}
