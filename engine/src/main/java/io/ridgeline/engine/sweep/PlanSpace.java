package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.training.PlanRules;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Enumerates the valid training plans of one (model, GPU count, global batch) in a fixed order: every factorisation
 * {@code gpu_count = tp x pp x cp x dp} drawn from the sweep's lists that Megatron-LM could run. Shape rules applied
 * here (so no evaluation is wasted on them): heads divisible by tp, at least one layer per model chunk (uneven stages
 * are allowed, as Megatron-LM allows them),
 * the global batch by dp x micro-batch, experts by ep with ep dividing dp x cp (dense models use ep = 1 only), and
 * sequence parallelism only where tp > 1 (it is a no-op otherwise); then the engine's own {@link PlanRules} (kv
 * heads, ffn width, interleaving, context split), so no evaluation is spent on a plan the engine would reject.
 * Runs once per (model, workload, GPU count) per partition, never per point.
 */
public final class PlanSpace {
    private PlanSpace() {
    }

    public static TrainingPlan[] enumerate(ModelSpec model, int seqLen, int gpuCount, int globalBatch,
                                         SweepSpec.Parallelism s) {
        List<TrainingPlan> out = new ArrayList<>();
        boolean spFalseListed = s.sp().contains(Boolean.FALSE);
        for (int tp : s.tp()) {
            if (model.heads() % tp != 0) {
                continue;
            }
            for (int pp : s.pp()) {
                if (model.layers() < pp) {
                    continue;
                }
                for (int cp : s.cp()) {
                    long tpppcp = (long) tp * pp * cp;
                    if (gpuCount % tpppcp != 0) {
                        continue;
                    }
                    int dp = (int) (gpuCount / tpppcp);
                    for (int vpp : s.vpp()) {
                        if (vpp > 1 && (pp == 1 || model.layers() < pp * vpp)) {
                            continue;
                        }
                        for (int ep : s.ep()) {
                            if (model.isMoe() ? model.moe().experts() % ep != 0 || ((long) dp * cp) % ep != 0
                                    : ep != 1) {
                                continue;
                            }
                            for (int mb : s.microBatch()) {
                                if (globalBatch % ((long) dp * mb) != 0) {
                                    continue;
                                }
                                for (int zero : s.zero()) {
                                    for (boolean sp : s.sp()) {
                                        if (tp == 1 && sp && spFalseListed) {
                                            continue;
                                        }
                                        for (Recompute rc : s.recompute()) {
                                            for (Precision pr : s.precision()) {
                                                TrainingPlan plan = new TrainingPlan(tp, pp, dp, cp, ep,
                                                        sp && tp > 1, vpp, zero, mb, globalBatch, rc, pr,
                                                        s.overlapGrad(), s.flashAttention());
                                                if (PlanRules.shapeProblem(model, seqLen, plan) == null) {
                                                    out.add(plan);
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return out.toArray(new TrainingPlan[0]);
    }
}
