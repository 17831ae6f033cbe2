package io.ridgeline.engine.inference;

import io.ridgeline.engine.evaluation.Infeasibility;
import io.ridgeline.engine.evaluation.PlanPoints;
import io.ridgeline.engine.evaluation.PlanResult;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.software.ServingBehaviour;
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
    private final DisaggregatedServing split;
    private final InferenceWorkload[] workloads;
    /** Per workload: the serving stack's runtime (no stack: the engine's default constants). */
    private final ServingBehaviour[] runtimes;
    /** Per workload: fused prefill attention, from the serving stack (no stack: fused, as runtimes ship). */
    private final boolean[] fused;
    /** Per workload: the disaggregation cell ("none" or "P:D"), built once. */
    private final String[] splits;

    private final StackCatalog stacks;

    InferencePoints(SweepSpec spec, ModelSpec[] models, HardwareCatalog hardware, StackCatalog stacks) {
        this(spec, new InferenceStep(hardware), new DisaggregatedServing(hardware), stacks);
    }

    private InferencePoints(SweepSpec spec, InferenceStep step, DisaggregatedServing split, StackCatalog stacks) {
        super(spec);
        this.step = step;
        this.split = split;
        this.stacks = stacks;
        this.workloads = new InferenceWorkload[spec.workloads().size()];
        this.runtimes = new ServingBehaviour[workloads.length];
        this.fused = new boolean[workloads.length];
        this.splits = new String[workloads.length];
        for (int i = 0; i < workloads.length; i++) {
            SweepSpec.Workload w = spec.workloads().get(i);
            if (w.inference()) {
                workloads[i] = workload(w);
                runtimes[i] = w.software().isEmpty() ? ServingBehaviour.ENGINE_DEFAULT
                        : stacks.profile(w.software()).serving();
                fused[i] = runtimes[i].attention().fused();
                splits[i] = w.disaggregation();
            }
        }
    }

    /** Another spec's points on the same steps (their per-(model, system, plan) tables) and stacks. */
    @Override
    public InferencePoints over(SweepSpec other, ModelSpec[] models) {
        return new InferencePoints(other, step, split, stacks);
    }

    /** The engine's workload of a phase setting: its serving mode and load (docs/INFERENCE.md, "Serving modes"). */
    static InferenceWorkload workload(SweepSpec.Workload w) {
        ServingMode mode = ServingMode.parse(w.servingMode());
        return switch (mode) {
            case STATIC -> new InferenceWorkload(w.globalBatch(), w.inputTokens(), w.outputTokens(), w.concurrency());
            case SATURATED -> new InferenceWorkload(mode, 0, w.inputTokens(), w.outputTokens(), w.concurrency(), 0,
                    w.requests());
            case ONLINE -> new InferenceWorkload(mode, 0, w.inputTokens(), w.outputTokens(), w.concurrency(),
                    w.requestsPerSecond());
        };
    }

    /**
     * The valid inference plans of one (model, workload, GPU count) in a fixed order: tp, then pp, then ep from the
     * search lists, with tp x ep x pp within the cluster and the shape rules ({@link InferenceStep#check}); dp fills
     * the cluster with replicas. A disaggregated setting keeps only plans whose replicas form whole deployment units
     * (dp a multiple of prefill + decode replicas).
     */
    static InferencePlan[] enumerate(ModelSpec model, int gpuCount, SweepSpec.Workload w, SweepSpec.Parallelism s,
                                     boolean fusedAttention, ServingBehaviour runtime) {
        List<InferencePlan> out = new ArrayList<>();
        int unit = w.prefillReplicas() + w.decodeReplicas();
        for (int tp : s.tp()) {
            for (int pp : s.pp()) {
                for (int ep : s.ep()) {
                    long replica = (long) tp * pp * ep;
                    if (replica > gpuCount) {
                        continue;
                    }
                    int dp = (int) (gpuCount / replica);
                    if (unit > 0) {
                        dp -= dp % unit;
                        if (dp == 0) {
                            continue;
                        }
                    }
                    InferencePlan plan = new InferencePlan(tp, pp, ep, dp, w.weightPrecision(),
                            w.activationPrecision(), w.kvCachePrecision(), w.cudaGraphs(), fusedAttention, runtime);
                    if (InferenceStep.check(model, plan).isEmpty()) {
                        out.add(plan);
                    }
                }
            }
        }
        return out.toArray(new InferencePlan[0]);
    }

    /** {@link #enumerate(ModelSpec, int, SweepSpec.Workload, SweepSpec.Parallelism, boolean, ServingBehaviour)} on the engine's default runtime. */
    static InferencePlan[] enumerate(ModelSpec model, int gpuCount, SweepSpec.Workload w, SweepSpec.Parallelism s,
                                     boolean fusedAttention) {
        return enumerate(model, gpuCount, w, s, fusedAttention, ServingBehaviour.ENGINE_DEFAULT);
    }

    /** The search list of a point, or its explicit plan (null where dp cannot fill the cluster or its units). */
    @Override
    protected InferencePlan[] build(ResultRow p) {
        SweepSpec.Workload w = p.workload();
        int gpus = p.gpuCount();
        int at = p.coord(Grid.WORKLOAD);
        boolean fusedAttention = fused[at];
        if (!explicit) {
            return enumerate(p.model(), gpus, w, spec.parallelism(), fusedAttention, runtimes[at]);
        }
        SweepSpec.ExplicitPlan e = explicitPlan(p);
        int replica = replicaGpus(e);
        // dp 0 = fill the cluster with whole replicas: a GPU count that is not a multiple of the replica is a
        // plan_shape row (not a silently smaller dp); a replica larger than the cluster still runs once, and the
        // engine reports the GPU shortfall (status gpu_count) with the numbers.
        int dp = e.dp() > 0 ? e.dp() : replica > gpus ? 1 : gpus % replica == 0 ? gpus / replica : 0;
        return new InferencePlan[]{dp == 0 ? null : new InferencePlan(e.tp(), e.pp(), e.ep(), dp,
                w.weightPrecision(), w.activationPrecision(), w.kvCachePrecision(), w.cudaGraphs(), fusedAttention,
                runtimes[at])};
    }

    @Override
    protected PlanResult run(ResultRow p, SystemSpec system, InferencePlan plan) {
        SweepSpec.Workload w = p.workload();
        if (w.disaggregated()) {
            InputError units = units(w, plan);
            if (units != null) {
                return InferenceResult.invalid(Infeasibility.PLAN_SHAPE, units.detail(), plan.gpusPerReplica(), 0,
                        w.outputTokens(), ServingMode.SATURATED);
            }
            return split.evaluate(p.model(), system, plan, w.prefillReplicas(), plan, w.decodeReplicas(),
                    w.inputTokens(), w.outputTokens(), w.concurrency());
        }
        return step.evaluate(p.model(), system, plan, workloads[p.coord(Grid.WORKLOAD)]);
    }

    @Override
    protected void fill(ResultRow p, InferencePlan plan, PlanResult r, double[] metrics) {
        if (r instanceof DisaggregatedServing.Result d) {
            SweepSpec.Workload w = p.workload();
            InferenceColumns.fillDisaggregated(metrics, d, plan, p.chip(), p.gpuCount(), w.outputTokens(),
                    w.prefillReplicas(), w.decodeReplicas());
        } else {
            InferenceColumns.fill(metrics, (InferenceResult) r, plan, p.chip(), p.gpuCount());
        }
    }

    @Override
    public void fillInfeasible(ResultRow p, PlanResult r, double[] metrics) {
        if (r.infeasibility() == Infeasibility.MEMORY_CAPACITY) {
            InferenceColumns.fillMemory(metrics, r instanceof DisaggregatedServing.Result d ? d.prefill()
                    : (InferenceResult) r, p.chip(), p.gpuCount());
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
                .set(ResultRow.Text.SOFTWARE, w.software().isEmpty() ? null : w.software())
                .set(ResultRow.Text.SERVING_MODE, w.servingMode())
                .set(ResultRow.Text.DISAGGREGATION, splits[p.coord(Grid.WORKLOAD)]);
        if (w.globalBatch() == 0) {
            p.clear(ResultRow.Count.GLOBAL_BATCH); // continuous batching has no static batch
        }
        if (w.concurrency() == 0) {
            p.clear(ResultRow.Count.CONCURRENCY); // no cap (saturated) or a request rate (online)
        }
    }

    @Override
    protected void write(InferencePlan plan, ResultRow row) {
        InferenceColumns.write(plan, row);
    }

    @Override
    protected void shapeProblems(ResultRow p, InferencePlan plan, List<InputError> out) {
        out.addAll(InferenceStep.check(p.model(), plan));
        InputError units = units(p.workload(), plan);
        if (units != null) {
            out.add(units);
        }
    }

    /** A disaggregated setting runs whole deployment units: dp a multiple of prefill + decode replicas; else why. */
    private static InputError units(SweepSpec.Workload w, InferencePlan plan) {
        int unit = w.prefillReplicas() + w.decodeReplicas();
        if (unit == 0 || plan.dp() % unit == 0) {
            return null;
        }
        return InputError.of("inference plan", "plan.dp", "a multiple of the " + unit + " replicas of one "
                + "disaggregation unit (" + w.disaggregation() + " prefill:decode)", Integer.toString(plan.dp()));
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
                + "ffn and layers divisible, ep 1 for dense models and dividing the experts; disaggregated: at least one "
                + "deployment unit of prefill + decode replicas)";
    }

    @Override
    public InputError wholeReplicas(int gpus, SweepSpec.ExplicitPlan e) {
        return ShapeRules.wholeReplicas(gpus, replicaGpus(e), "tp x ep x pp");
    }

    private static int replicaGpus(SweepSpec.ExplicitPlan e) {
        return e.tp() * e.ep() * e.pp();
    }
}
