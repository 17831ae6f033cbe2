package io.ridgeline.engine.inference;

import io.ridgeline.engine.evaluation.Infeasibility;
import io.ridgeline.engine.evaluation.PlanPoints;
import io.ridgeline.engine.evaluation.PlanResult;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.sweep.Grid;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * The inference phase behind the evaluator: evaluates a grid point whose workload is an inference phase setting with
 * {@link InferenceStep}, under the evaluator's selection rules.
 *
 * <p>Plans: one replica is {@code tp x ep x pp} GPUs and the cluster runs
 * {@code dp = floor(gpu_count / (tp x ep x pp))} replicas (an explicit plan may give a smaller dp). Precisions and
 * CUDA graphs come from the workload (they are phase settings, swept as axes, not searched), the prefill attention
 * kernel from its serving stack (fused without one). Plan lists and
 * {@link InferenceWorkload}s are built once per evaluator; {@link InferenceStep} keeps its per-(model, system, plan)
 * tables while those objects repeat.
 */
final class InferencePoints extends PlanPoints<InferencePlan> {
    private final InferenceStep step;
    private final InferenceWorkload[] workloads;
    /** Per workload: fused prefill attention, from the serving stack (no stack: fused, as runtimes ship). */
    private final boolean[] fused;

    InferencePoints(SweepSpec spec, ModelSpec[] models, HardwareCatalog hardware) {
        super(spec);
        this.step = new InferenceStep(hardware);
        this.workloads = new InferenceWorkload[spec.workloads().size()];
        this.fused = new boolean[workloads.length];
        for (int i = 0; i < workloads.length; i++) {
            SweepSpec.Workload w = spec.workloads().get(i);
            if (w.inference()) {
                workloads[i] = new InferenceWorkload(w.globalBatch(), w.inputTokens(), w.outputTokens(),
                        w.concurrency());
                fused[i] = w.software().isEmpty()
                        || StackCatalog.bundled().profile(w.software()).serving().attention().fused();
            }
        }
    }

    /**
     * The valid inference plans of one (model, workload, GPU count) in a fixed order: tp, then pp, then ep from the
     * search lists, with tp x ep x pp within the cluster and the shape rules ({@link InferenceStep#check}); dp fills
     * the cluster with replicas.
     */
    static InferencePlan[] enumerate(ModelSpec model, int gpuCount, SweepSpec.Workload w, SweepSpec.Parallelism s,
                                     boolean fusedAttention) {
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
                            fusedAttention);
                    if (InferenceStep.check(model, plan).isEmpty()) {
                        out.add(plan);
                    }
                }
            }
        }
        return out.toArray(new InferencePlan[0]);
    }

    /** The search list of a point, or its explicit plan (null where dp cannot fill the cluster). */
    @Override
    protected InferencePlan[] build(ResultRow p) {
        SweepSpec.Workload w = p.workload();
        int gpus = p.gpuCount();
        boolean fusedAttention = fused[p.coord(Grid.WORKLOAD)];
        if (!explicit) {
            return enumerate(p.model(), gpus, w, spec.parallelism(), fusedAttention);
        }
        SweepSpec.ExplicitPlan e = explicitPlan(p);
        int replica = replicaGpus(e);
        // dp 0 = fill the cluster with whole replicas: a GPU count that is not a multiple of the replica is a
        // plan_shape row (not a silently smaller dp); a replica larger than the cluster still runs once, and the
        // engine reports the GPU shortfall (status gpu_count) with the numbers.
        int dp = e.dp() > 0 ? e.dp() : replica > gpus ? 1 : gpus % replica == 0 ? gpus / replica : 0;
        return new InferencePlan[]{dp == 0 ? null : new InferencePlan(e.tp(), e.pp(), e.ep(), dp,
                w.weightPrecision(), w.activationPrecision(), w.kvCachePrecision(), w.cudaGraphs(), fusedAttention)};
    }

    @Override
    protected PlanResult run(ResultRow p, SystemSpec system, InferencePlan plan) {
        return step.evaluate(p.model(), system, plan, workloads[p.coord(Grid.WORKLOAD)]);
    }

    @Override
    protected void fill(ResultRow p, InferencePlan plan, PlanResult r, double[] metrics) {
        InferenceColumns.fill(metrics, (InferenceResult) r, plan, p.chip(), p.gpuCount());
    }

    @Override
    public void fillInfeasible(ResultRow p, PlanResult r, double[] metrics) {
        if (r.infeasibility() == Infeasibility.MEMORY_CAPACITY) {
            InferenceColumns.fillMemory(metrics, (InferenceResult) r, p.chip(), p.gpuCount());
        }
    }

    @Override
    public void writeWorkload(ResultRow p) {
        SweepSpec.Workload w = p.workload();
        p.set(ResultRow.Count.INPUT_TOKENS, w.inputTokens()).set(ResultRow.Count.OUTPUT_TOKENS, w.outputTokens())
                .set(ResultRow.Count.CONCURRENCY, w.concurrency()).set(ResultRow.Flag.CUDA_GRAPHS, w.cudaGraphs())
                .set(ResultRow.Text.WEIGHT_PRECISION, w.weightPrecision().id())
                .set(ResultRow.Text.ACTIVATION_PRECISION, w.activationPrecision().id())
                .set(ResultRow.Text.KV_CACHE_PRECISION, w.kvCachePrecision().id())
                .set(ResultRow.Text.SOFTWARE, w.software().isEmpty() ? null : w.software());
    }

    @Override
    protected void write(InferencePlan plan, ResultRow row) {
        InferenceColumns.write(plan, row);
    }

    @Override
    protected void shapeProblems(ResultRow p, InferencePlan plan, List<InputError> out) {
        out.addAll(InferenceStep.check(p.model(), plan));
    }

    @Override
    protected InputError gpuProblem(ResultRow p, InferencePlan plan) {
        return plan.gpus() <= p.gpuCount() ? null : InputError.of("inference plan", "plan.dp", "tp x ep x pp x dp at "
                + "most gpu_count " + p.gpuCount(), plan.tp() + " x " + plan.ep() + " x " + plan.pp() + " x "
                + plan.dp() + " = " + plan.gpus());
    }

    @Override
    public String noPlan() {
        return "no plan in the search lists fits this model and GPU count (tp x ep x pp <= gpu_count, heads, kv heads, "
                + "ffn and layers divisible, ep 1 for dense models and dividing the experts)";
    }

    @Override
    public InputError wholeReplicas(int gpus, SweepSpec.ExplicitPlan e) {
        return ShapeRules.wholeReplicas(gpus, replicaGpus(e), "tp x ep x pp");
    }

    private static int replicaGpus(SweepSpec.ExplicitPlan e) {
        return e.tp() * e.ep() * e.pp();
    }
}
