package io.ridgeline.engine.validation;

import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceWorkload;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.sweep.CostSpec;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.sweep.TopologyAxis;

import java.util.ArrayList;
import java.util.List;

/**
 * A measured case as the {@link io.ridgeline.engine.evaluation.Evaluator} reads it: a one-point sweep spec. The
 * point is the case's chip on its reference scale-out network, at the row's scale-out rate and GPUs per node when it
 * states them (0 = the network's and the chip's own, as in sweep files), its GPU count and its phase setting; the
 * explicit plans (the plan axis) are the plans the case may have run: its stated plan, or one per micro-batch or
 * expert-parallel size the sources tuned ({@link Validator} picks the fastest). The model is the row's shape
 * ({@link CaseMapper#model}), handed to the evaluator beside the spec.
 */
final class CasePoint {
    /** Cases have no cost columns to speak of: the default TCO knobs and no token budget, built once. */
    private static final CostSpec COST = new CostSpec(TcoParameters.defaults(), 0);
    private CasePoint() {
    }

    /** A training case: {@code plans} on the row's system, with the stack {@code software} (a profile id). */
    static SweepSpec training(CsvTable.Row r, String modelName, String software, List<TrainingPlan> plans) {
        TrainingPlan first = plans.get(0);
        List<SweepSpec.ExplicitPlan> explicit = new ArrayList<>(plans.size());
        for (TrainingPlan p : plans) {
            explicit.add(new SweepSpec.ExplicitPlan(p.tp(), p.pp(), p.dp(), p.cp(), p.ep(), p.sp(), p.vpp(), p.zero(),
                    p.microBatch(), p.recompute(), p.precision()));
        }
        int seqLen = (int) r.integer("seq_len");
        return spec(r, modelName, SweepSpec.Workload.training(seqLen, first.globalBatch(), software), explicit);
    }

    /** An inference case: one plan serving one workload, with the stack {@code software} ("" = none). */
    static SweepSpec inference(CsvTable.Row r, String modelName, String software, InferencePlan plan,
                               InferenceWorkload w) {
        SweepSpec.Workload workload = SweepSpec.Workload.inference(w.batch(), w.inputTokens(), w.outputTokens(),
                w.concurrency(), plan.weightPrecision(), plan.activationPrecision(), plan.kvCachePrecision(),
                plan.cudaGraphs(), software).serving(w.mode().id(), w.batch(), w.concurrency(), w.requestsPerSecond(),
                0, 0).withRequests(w.requests());
        // cp, sp, vpp, zero, micro-batch, recompute and precision are training settings: inference reads tp, pp, ep, dp
        SweepSpec.ExplicitPlan explicit = new SweepSpec.ExplicitPlan(plan.tp(), plan.pp(), plan.dp(), 1, plan.ep(),
                false, 1, 0, 1, null, plan.weightPrecision());
        return spec(r, modelName, workload, List.of(explicit));
    }

    private static SweepSpec spec(CsvTable.Row r, String modelName, SweepSpec.Workload workload,
                                  List<SweepSpec.ExplicitPlan> plans) {
        double gbps = r.isEmpty("scale_out_gbps") ? 0 : r.positive("scale_out_gbps");
        int domain = r.isEmpty("gpus_per_node") ? 0 : (int) r.integer("gpus_per_node");
        List<Integer> none = List.of();
        SweepSpec.Parallelism parallelism = new SweepSpec.Parallelism(SweepSpec.Mode.EXPLICIT, SweepSpec.Keep.BEST,
                none, none, none, none, none, none, none, List.of(), List.of(), List.of(), plans);
        return new SweepSpec(r.source() + ":" + r.line(), r.string("case_id"), "", "", List.of(modelName),
                List.of(workload), List.of(r.string("gpu")), List.of(SweepSpec.DEFAULT), List.of(gbps),
                List.of(domain), List.of((int) r.integer("num_gpus")), parallelism,
                new SweepSpec.Constraints(List.of()), List.of(), List.of(), SweepSpec.PointsPolicy.ALL, List.of(),
                List.of(), List.of(TopologyAxis.NONE), COST, false, null, 0);
    }
}
