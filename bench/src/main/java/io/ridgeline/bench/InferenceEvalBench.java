package io.ridgeline.bench;

import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.inference.InferenceStep;
import io.ridgeline.engine.inference.InferenceWorkload;
import io.ridgeline.engine.workload.ModelSpec;
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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One GPT-3-175B inference evaluation ({@code InferenceStep.evaluate}: prefill, decode over the generation,
 * continuous-batching throughput, memory) on 8 H100s with TP 8, on one thread:
 * <ul>
 *   <li>{@code warmSamePoint}: the same workload repeatedly;</li>
 *   <li>{@code warmWorkloadCycle}: cycles through 7 batches x 4 prompt lengths x 4 output lengths (112 workloads)
 *       with the replica prepared, caches warm: a sweep's inner loop over serving settings;</li>
 *   <li>{@code warmPlanCycle}: alternates between the TP 8 and the TP 4 x PP 2 plans with FP8 weights, so the
 *       per-plan replica tables are rebuilt every call (GEMM cache warm);</li>
 *   <li>{@code coldStep}: a fresh {@code InferenceStep} per evaluation (every table and GEMM shape computed).</li>
 * </ul>
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xmx1g"})
@State(Scope.Thread)
public class InferenceEvalBench {
    private static final ModelSpec MODEL = Points.GPT3;
    private static final SystemSpec H100_8 = SystemSpec.of(Points.HARDWARE.chip("h100-sxm"), 8,
            Points.HARDWARE.network("ndr"));
    private static final InferencePlan TP8 = InferencePlan.tensorParallel(8);
    private static final InferencePlan TP4_PP2_FP8 = new InferencePlan(4, 2, 1, 1, Precision.FP8, Precision.FP8,
            Precision.FP8, true, true);
    private static final InferenceWorkload CHAT = InferenceWorkload.staticBatch(16, 1024, 256);

    private final InferenceStep step = new InferenceStep(Points.HARDWARE);
    private InferenceWorkload[] workloads;
    private int next;

    @Setup
    public void setup() {
        List<InferenceWorkload> w = new ArrayList<>();
        for (int batch : new int[]{1, 2, 4, 8, 16, 32, 64}) {
            for (int in : new int[]{128, 512, 2048, 8192}) {
                for (int out : new int[]{32, 128, 512, 2048}) {
                    w.add(new InferenceWorkload(batch, in, out, Math.max(batch, 32)));
                }
            }
        }
        workloads = w.toArray(new InferenceWorkload[0]);
    }

    @Benchmark
    public InferenceResult warmSamePoint() {
        return step.evaluate(MODEL, H100_8, TP8, CHAT);
    }

    @Benchmark
    public InferenceResult warmWorkloadCycle() {
        InferenceWorkload w = workloads[next];
        next = next + 1 == workloads.length ? 0 : next + 1;
        return step.evaluate(MODEL, H100_8, TP8, w);
    }

    @Benchmark
    public InferenceResult warmPlanCycle() {
        next ^= 1;
        return step.evaluate(MODEL, H100_8, next == 0 ? TP8 : TP4_PP2_FP8, CHAT);
    }

    @Benchmark
    public InferenceResult coldStep() {
        return new InferenceStep(Points.HARDWARE).evaluate(MODEL, H100_8, TP8, CHAT);
    }
}
