package io.ridgeline.bench;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.pareto.Goal;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.training.PlanSearch;
import io.ridgeline.engine.training.PlanSpace;
import io.ridgeline.engine.sweep.SweepSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * Times the exhaustive plan search of GPT-3 175B (seq 2048, global batch 1536) on H100-SXM clusters (8-GPU NVSwitch
 * nodes, NDR InfiniBand) over every knob the engine models, with no pruning:
 * tp, pp in 1..64 (powers of two), cp in {1, 2}, dp = the rest, vpp 1..96 and micro-batch 1..256 (the shape rules
 * keep the valid ones), ZeRO 0-3, SP on/off, recompute none/selective/full, bf16/fp8, DP overlap on/off and fused
 * attention on/off. For 64 GPUs that is 1,962,240 plans (Calculon's space for this case: ~1.9 million).
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.ridgeline.bench.PlanSearchMain [threads] [repeats] [gpus...]}; each GPU
 * count is searched {@code repeats} times in this JVM. The first search of the first count includes JIT warm-up
 * (what a one-shot CLI call pays); the best of the repeats is the steady state.
 */
public final class PlanSearchMain {
    static final PlanSpace.Axes AXES = new PlanSpace.Axes(List.of(1, 2, 4, 8, 16, 32, 64),
            List.of(1, 2, 4, 8, 16, 32, 64), List.of(1, 2), List.of(1), range(1, 96), range(1, 256),
            List.of(0, 1, 2, 3), List.of(false, true), List.of(Recompute.NONE, Recompute.SELECTIVE, Recompute.FULL),
            List.of(Precision.BF16, Precision.FP8), List.of(false, true), List.of(false, true));
    static final List<SweepSpec.Objective> OBJECTIVES = List.of(
            new SweepSpec.Objective(Metric.TOKENS_PER_S, Goal.MAX), new SweepSpec.Objective(Metric.HBM_BYTES, Goal.MIN));

    private PlanSearchMain() {
    }

    public static void main(String[] args) {
        int threads = args.length > 0 ? Integer.parseInt(args[0]) : Runtime.getRuntime().availableProcessors();
        int repeats = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        List<Integer> gpus = new ArrayList<>();
        for (int i = 2; i < args.length; i++) {
            gpus.add(Integer.parseInt(args[i]));
        }
        if (gpus.isEmpty()) {
            gpus = List.of(64, 256, 1024, 4096);
        }
        System.out.printf(Locale.ROOT, "plan search: gpt3-175b seq 2048 batch 1536 on h100-sxm/ndr, %d threads, %d cores%n",
                threads, Runtime.getRuntime().availableProcessors());
        System.out.printf(Locale.ROOT, "%6s %10s %9s %9s %9s %12s %9s  %s%n", "gpus", "plans", "feasible",
                "first_s", "best_s", "plans_per_s", "frontier", "best plan (tokens/s)");
        for (int g : gpus) {
            SystemSpec system = SystemSpec.of(Points.HARDWARE.chip("h100-sxm"), g, Points.HARDWARE.network("ndr"));
            double first = Double.NaN;
            double best = Double.POSITIVE_INFINITY;
            PlanSearch.Result r = null;
            for (int k = 0; k < repeats; k++) {
                r = PlanSearch.run(Points.GPT3, Points.SEQ_LEN, system, Points.GLOBAL_BATCH, AXES, OBJECTIVES,
                        threads, Points.HARDWARE);
                if (k == 0) {
                    first = r.seconds();
                }
                best = Math.min(best, r.seconds());
            }
            System.out.printf(Locale.ROOT, "%6d %10d %9d %9.3f %9.3f %12.0f %9d  %s (%.0f)%n", g, r.plans(),
                    r.feasible(), first, best, r.plans() / best, r.frontier().size(), r.best(),
                    r.bestMetrics() == null ? Double.NaN : r.bestMetrics()[Metric.TOKENS_PER_S.ordinal()]);
        }
    }

    private static List<Integer> range(int from, int to) {
        return IntStream.rangeClosed(from, to).boxed().toList();
    }
}
