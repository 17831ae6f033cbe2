package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.ShapeRules;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Enumerates the valid training plans of one (model, GPU count, global batch) in a fixed order: every factorisation
 * {@code gpu_count = tp x pp x cp x dp} drawn from the sweep's lists that Megatron-LM could run. Shape rules applied
 * here (so no evaluation is wasted on them): heads divisible by tp, at least one layer per model chunk (uneven stages
 * are allowed, as Megatron-LM allows them),
 * the global batch by dp x micro-batch, experts by ep with ep dividing dp x cp (dense models use ep = 1 only), and
 * sequence parallelism only where tp > 1 (it is a no-op otherwise); then the engine's own {@link ShapeRules} (kv
 * heads, ffn width, interleaving, context split), so no evaluation is spent on a plan the engine would reject.
 * Runs once per (model, workload, GPU count) per partition, never per point.
 *
 * <p>The space is a list of {@link Layout}s (the parallel sizes and the micro-batch) times, inside each, the options
 * that never change a plan's shape validity (ZeRO stage, SP, recomputation, precision, DP overlap, fused attention).
 * Plan {@code i} of {@link #enumerate} is option {@code i - offset} of its layout, so a search can walk the space
 * lazily and in parallel ({@link PlanSearch}) with the same plan indices as the materialised array.
 */
public final class PlanSpace {
    private PlanSpace() {
    }

    /**
     * The lists a search draws from (read, never changed). A sweep's software stack fixes DP
     * overlap and fused attention to one value each
     * ({@link #of(SweepSpec.Parallelism, TrainingBehaviour)}); a plan search may list both values of every option.
     */
    public record Axes(List<Integer> tp, List<Integer> pp, List<Integer> cp, List<Integer> ep, List<Integer> vpp,
                       List<Integer> microBatch, List<Integer> zero, List<Boolean> sp, List<Recompute> recompute,
                       List<Precision> precision, List<Boolean> overlapGrad, List<Boolean> flashAttention) {
        /**
         * A sweep's search lists under one training stack: its DP overlap (grad_reduce_overlap) and attention kernel
         * (fused or not) are the plans' TrainingPlan booleans.
         */
        public static Axes of(SweepSpec.Parallelism s, TrainingBehaviour software) {
            return new Axes(s.tp(), s.pp(), s.cp(), s.ep(), s.vpp(), s.microBatch(), s.zero(), s.sp(), s.recompute(),
                    s.precision(), List.of(software.gradReduceOverlap()), List.of(software.attention().fused()));
        }
    }

    /**
     * The shape-determining part of a plan: parallel sizes and micro-batch. Every option combination inside a valid
     * layout is a valid plan. {@code firstPlan} is the index of its first plan in {@link #enumerate}'s order.
     */
    public record Layout(int tp, int pp, int cp, int dp, int ep, int vpp, int microBatch, long firstPlan,
                         int options) {
    }

    /** The valid plans in the fixed order (what a sweep evaluates per point). */
    public static TrainingPlan[] enumerate(ModelSpec model, int seqLen, int gpuCount, int globalBatch,
                                           SweepSpec.Parallelism s, TrainingBehaviour software) {
        return enumerate(model, seqLen, gpuCount, globalBatch, Axes.of(s, software));
    }

    public static TrainingPlan[] enumerate(ModelSpec model, int seqLen, int gpuCount, int globalBatch, Axes a) {
        List<Layout> layouts = layouts(model, seqLen, gpuCount, globalBatch, a);
        long n = count(layouts);
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("plan space too large to materialise: " + n);
        }
        TrainingPlan[] out = new TrainingPlan[(int) n];
        int i = 0;
        for (Layout l : layouts) {
            for (int o = 0; o < l.options(); o++) {
                out[i++] = plan(l, o, globalBatch, a);
            }
        }
        return out;
    }

    /** Total plans over the layouts. */
    public static long count(List<Layout> layouts) {
        return layouts.isEmpty() ? 0 : layouts.get(layouts.size() - 1).firstPlan()
                + layouts.get(layouts.size() - 1).options();
    }

    /** The valid layouts in enumeration order, each with its plan offset and option count. */
    public static List<Layout> layouts(ModelSpec model, int seqLen, int gpuCount, int globalBatch, Axes s) {
        List<Layout> out = new ArrayList<>();
        long first = 0;
        for (int tp : s.tp()) {
            if (model.heads() % tp != 0) {
                continue;
            }
            int options = s.zero().size() * spValues(tp, s).length * s.recompute().size() * s.precision().size()
                    * s.overlapGrad().size() * s.flashAttention().size();
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
                                if (globalBatch % ((long) dp * mb) != 0 || options == 0) {
                                    continue;
                                }
                                // Options never break a shape rule (SP is only set where tp > 1): one check suffices.
                                TrainingPlan probe = new TrainingPlan(tp, pp, dp, cp, ep, false, vpp, 0, mb,
                                        globalBatch, Recompute.NONE, Precision.BF16, false, false);
                                if (ShapeRules.training(model, seqLen, probe) == null) {
                                    out.add(new Layout(tp, pp, cp, dp, ep, vpp, mb, first, options));
                                    first += options;
                                }
                            }
                        }
                    }
                }
            }
        }
        return out;
    }

    /**
     * Option {@code o} of a layout, options ordered zero, sp, recompute, precision, DP overlap, fused attention (the
     * last varying fastest).
     */
    public static TrainingPlan plan(Layout l, int o, int globalBatch, Axes s) {
        int rest = o;
        boolean flash = s.flashAttention().get(rest % s.flashAttention().size());
        rest /= s.flashAttention().size();
        boolean overlap = s.overlapGrad().get(rest % s.overlapGrad().size());
        rest /= s.overlapGrad().size();
        Precision pr = s.precision().get(rest % s.precision().size());
        rest /= s.precision().size();
        Recompute rc = s.recompute().get(rest % s.recompute().size());
        rest /= s.recompute().size();
        boolean[] sps = spValues(l.tp(), s);
        boolean sp = sps[rest % sps.length];
        rest /= sps.length;
        int zero = s.zero().get(rest);
        return new TrainingPlan(l.tp(), l.pp(), l.dp(), l.cp(), l.ep(), sp, l.vpp(), zero, l.microBatch(), globalBatch,
                rc, pr, overlap, flash);
    }

    /**
     * The SP values a layout takes: all listed ones where tp > 1; with tp = 1 SP is a no-op, so a listed "false"
     * keeps only the false entries, and a list of only "true" becomes false (one plan, not a duplicate).
     */
    private static boolean[] spValues(int tp, Axes s) {
        List<Boolean> sp = s.sp();
        boolean falseListed = sp.contains(Boolean.FALSE);
        int n = 0;
        for (boolean v : sp) {
            if (tp > 1 || !v || !falseListed) {
                n++;
            }
        }
        boolean[] out = new boolean[n];
        int i = 0;
        for (boolean v : sp) {
            if (tp > 1 || !v || !falseListed) {
                out[i++] = v && tp > 1;
            }
        }
        return out;
    }
}
