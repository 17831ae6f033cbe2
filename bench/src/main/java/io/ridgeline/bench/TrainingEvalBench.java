package io.ridgeline.bench;

import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.training.PlanSpace;
import io.ridgeline.engine.training.TrainingResult;
import io.ridgeline.engine.training.TrainingStep;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One GPT-3-175B training evaluation ({@code TrainingStep.evaluate}) on one thread:
 * <ul>
 *   <li>{@code warmSamePoint}: the same point over and over (every GEMM shape cached);</li>
 *   <li>{@code warmPlanCycle}: cycles through every plan of a realistic search list for 1024 A100s (about 2,000
 *       plans with their different shapes, layouts, memory and infeasibility), caches warm after the warm-up: what
 *       a sweep's inner loop does;</li>
 *   <li>{@code coldStep}: a fresh {@code TrainingStep} per evaluation, so every GEMM shape is computed (the first point
 *       of a new chip in a partition).</li>
 * </ul>
 * Throughput is per core (one benchmark thread).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@State(Scope.Thread)
public class TrainingEvalBench {
    private final TrainingStep step = new TrainingStep(Points.HARDWARE);
    private TrainingPlan[] plans;
    private int next;

    @Setup
    public void setup() {
        // DP overlap on, unfused attention: one software era, as the plan cycle has always measured it.
        PlanSpace.Axes space = new PlanSpace.Axes(List.of(1, 2, 4, 8, 16), List.of(1, 2, 4, 8, 16, 32), List.of(1),
                List.of(1), List.of(1, 2, 3, 4), List.of(1, 2, 4, 8), List.of(0, 1, 2, 3), List.of(false, true),
                List.of(Recompute.NONE, Recompute.SELECTIVE, Recompute.FULL), List.of(Precision.BF16), List.of(true),
                List.of(false));
        plans = PlanSpace.enumerate(Points.GPT3, Points.SEQ_LEN, Points.A100_1024.gpuCount(), Points.GLOBAL_BATCH,
                space);
        if (plans.length < 1000) {
            throw new IllegalStateException("expected a realistic plan list, got " + plans.length);
        }
    }

    @Benchmark
    public TrainingResult warmSamePoint() {
        return step.evaluate(Points.GPT3, Points.SEQ_LEN, Points.A100_1024, Points.GPT3_PLAN);
    }

    @Benchmark
    public TrainingResult warmPlanCycle() {
        TrainingPlan plan = plans[next];
        next = next + 1 == plans.length ? 0 : next + 1;
        return step.evaluate(Points.GPT3, Points.SEQ_LEN, Points.A100_1024, plan);
    }

    @Benchmark
    public TrainingResult coldStep() {
        return new TrainingStep(Points.HARDWARE).evaluate(Points.GPT3, Points.SEQ_LEN, Points.A100_1024,
                Points.GPT3_PLAN);
    }
}
