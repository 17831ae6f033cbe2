package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Serving modes (static, saturated, online), runtime limits, the latency-throughput curve and disaggregation. */
class ServingModesTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final ModelSpec L8 = ModelCatalog.bundled().model("llama3.1-8b");
    static final ModelSpec L70 = ModelCatalog.bundled().model("llama3.1-70b");
    static final ServingBehaviour TRT = StackCatalog.bundled().profile("trt-llm@1.0").serving();
    static final SystemSpec H100 = SystemSpec.of(HW.chip("h100-sxm"), 8, HW.defaultNetwork(HW.chip("h100-sxm")));

    static InferencePlan fp8(int tp, ServingBehaviour runtime) {
        return InferencePlan.tensorParallel(tp).withPrecisions(Precision.FP8, Precision.FP8, Precision.FP8)
                .withRuntime(runtime);
    }

    static CsvTable.Row row(Path dir, String batch, String metric, String framework) throws IOException {
        Path f = dir.resolve("c.csv");
        Files.writeString(f, "case_id,phase,batch,input_len,output_len,metric,framework\n"
                + "x,inference," + batch + ",128,128," + metric + "," + framework + "\n");
        return CsvTable.read(f).rows().get(0);
    }

    @Test
    void anEmptyBatchOnAThroughputRowIsSaturationNotBatchOne(@TempDir Path dir) throws IOException {
        CsvTable.Row r = row(dir, "", "output_tokens_per_s_per_gpu", "trt-llm@1.0");
        InferenceWorkload w = InferenceCases.workload(r, InferenceCases.runtime(r, StackCatalog.bundled()));
        assertEquals(ServingMode.SATURATED, w.mode());
        assertEquals(0, w.concurrency());
    }

    @Test
    void aLatencyRowWithoutABatchIsAnErrorNamingTheBatch(@TempDir Path dir) throws IOException {
        CsvTable.Row r = row(dir, "", "ttft_ms", "trt-llm@1.0");
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> InferenceCases.workload(r, TRT));
        assertTrue(e.getMessage().contains("batch"), e.getMessage());
        // A static-batching runtime has no saturation either: its throughput rows need their batch.
        CsvTable.Row s = row(dir, "", "output_tokens_per_s_per_gpu", "trt-llm@0.5.0");
        assertThrows(InvalidInputException.class, () -> InferenceCases.workload(s,
                StackCatalog.bundled().profile("trt-llm@0.5.0").serving()));
    }

    @Test
    void aStatedBatchOnAContinuousRuntimeIsThatManyClients(@TempDir Path dir) throws IOException {
        CsvTable.Row r = row(dir, "32", "tpot_ms", "vllm");
        InferenceWorkload w = InferenceCases.workload(r, StackCatalog.bundled().profile("vllm").serving());
        assertEquals(ServingMode.ONLINE, w.mode());
        assertEquals(32, w.concurrency());
    }

    @Test
    void saturationSettlesAtTheKvCacheLimitForLongRequests() {
        InferenceStep step = new InferenceStep();
        InferencePlan plan = fp8(1, TRT);
        InferenceResult r = step.evaluate(L8, H100, plan, InferenceWorkload.saturated(20000, 2000));
        InferenceMemory m = new InferenceMemory(L8, plan, HW.chip("h100-sxm").memoryBytes());
        // GUARANTEED_NO_EVICT: each request reserves input + output tokens, rounded to 32-token blocks.
        double perRequest = Math.ceil(22000 / 32.0) * 32 * m.kvBytesPerToken();
        assertEquals(Math.floor(r.kvCacheBytes() / perRequest), r.concurrency(), 0);
        assertTrue(r.concurrency() < TRT.maxBatch());
    }

    @Test
    void theRuntimesMaxBatchCapsShortRequestsAndCostsThroughput() {
        InferenceStep step = new InferenceStep();
        InferenceWorkload w = InferenceWorkload.saturated(128, 128);
        InferenceResult free = step.evaluate(L8, H100, fp8(1, TRT), w);
        InferenceResult capped = step.evaluate(L8, H100, fp8(1, TRT.withLimits(64, 32768, false)), w);
        assertEquals(64, capped.concurrency(), 0);
        assertTrue(free.concurrency() > 1000, "KV-limited concurrency " + free.concurrency());
        assertTrue(free.outputTokensPerSecondPerGpu() > 2 * capped.outputTokensPerSecondPerGpu());
        // Batch 1 (static) is far below saturation: what the empty-batch bug reported.
        InferenceResult one = step.evaluate(L8, H100, fp8(1, TRT), InferenceWorkload.staticBatch(1, 128, 128));
        assertTrue(free.outputTokensPerSecondPerGpu() > 50 * one.outputTokensPerSecondPerGpu());
    }

    @Test
    void moreOnlineClientsRaiseThroughputAndLowerPerUserSpeed() {
        InferenceStep step = new InferenceStep();
        int[] clients = {1, 4, 16, 64, 256};
        double[] user = new double[clients.length];
        double[] gpu = new double[clients.length];
        step.curve(L70, H100, fp8(4, TRT), 1000, 500, clients, user, gpu);
        for (int i = 1; i < clients.length; i++) {
            assertTrue(gpu[i] > gpu[i - 1], "per-GPU throughput at " + clients[i]);
            assertTrue(user[i] < user[i - 1], "per-user speed at " + clients[i]);
        }
        // The curve's points are the online mode's results.
        InferenceResult r = step.evaluate(L70, H100, fp8(4, TRT), InferenceWorkload.online(16, 1000, 500));
        assertEquals(r.outputTokensPerSecondPerGpu(), gpu[2], 1e-9 * gpu[2]);
        assertEquals(r.outputTokensPerSecondPerUser(), user[2], 1e-9 * user[2]);
    }

    @Test
    void clientsBeyondTheRuntimesLimitWaitInTheQueue() {
        InferenceStep step = new InferenceStep();
        InferencePlan plan = fp8(1, TRT.withLimits(16, 32768, false));
        InferenceResult at = step.evaluate(L8, H100, plan, InferenceWorkload.online(16, 1000, 200));
        InferenceResult over = step.evaluate(L8, H100, plan, InferenceWorkload.online(64, 1000, 200));
        assertEquals(at.outputTokensPerSecondPerGpu(), over.outputTokensPerSecondPerGpu(),
                1e-9 * at.outputTokensPerSecondPerGpu());
        // 64 clients on 16 slots: each request waits about three request lifetimes before it runs.
        double lifetime = at.e2eLatencySeconds();
        assertEquals(at.ttftSeconds() + 3 * lifetime, over.ttftSeconds(), 0.02 * over.ttftSeconds());
    }

    @Test
    void aRequestRateFollowsLittlesLawAndOverloadHasNoFiniteTtft() {
        InferenceStep step = new InferenceStep();
        InferencePlan plan = fp8(1, TRT);
        InferenceResult sat = step.evaluate(L8, H100, plan, InferenceWorkload.saturated(500, 200));
        double most = sat.outputTokensPerSecondPerGpu() / 200;
        InferenceResult half = step.evaluate(L8, H100, plan, InferenceWorkload.onlineRate(0.5 * most, 500, 200));
        assertEquals(0.5 * most * 200, half.outputTokensPerSecondPerGpu(), 1e-6 * most);
        // Little's law: requests in system = rate x time in system.
        assertEquals(half.concurrency(), 0.5 * most * half.e2eLatencySeconds(), 0.01 * half.concurrency());
        InferenceResult over = step.evaluate(L8, H100, plan, InferenceWorkload.onlineRate(2 * most, 500, 200));
        assertEquals(Double.POSITIVE_INFINITY, over.ttftSeconds());
    }

    @Test
    void disaggregationIsBoundByTheSlowerPoolAndItsKvLinks() {
        DisaggregatedServing d = new DisaggregatedServing();
        InferencePlan p = fp8(1, TRT);
        // 1000 in / 1000 out: a prompt costs one prefill pass, its answer a thousand decode steps, so one decode
        // replica binds whatever the GEMM efficiencies (a 4000 / 500 mix sits near the balance point).
        DisaggregatedServing.Result oneDecode = d.evaluate(L8, H100, new DisaggregatedPlan(p, 1, p, 1), 1000, 1000);
        DisaggregatedServing.Result threeDecode = d.evaluate(L8, H100, new DisaggregatedPlan(p, 1, p, 3), 1000, 1000);
        assertTrue(threeDecode.requestsPerSecond() >= oneDecode.requestsPerSecond());
        // Decode-bound with one decode replica: three of them carry three times the requests while still decode-bound.
        assertEquals(DisaggregatedServing.Limit.DECODE, oneDecode.limit());
        if (threeDecode.limit() == DisaggregatedServing.Limit.DECODE) {
            assertEquals(3 * oneDecode.requestsPerSecond(), threeDecode.requestsPerSecond(),
                    1e-9 * threeDecode.requestsPerSecond());
        }
        // Across nodes the KV cache moves over the slower scale-out network.
        SystemSpec twoNodes = SystemSpec.of(HW.chip("h100-sxm"), 16, HW.defaultNetwork(HW.chip("h100-sxm")));
        DisaggregatedServing.Result far = d.evaluate(L8, twoNodes, new DisaggregatedPlan(p, 8, p, 8), 4000, 500);
        DisaggregatedServing.Result near = d.evaluate(L8, twoNodes, new DisaggregatedPlan(p, 4, p, 4), 4000, 500);
        assertTrue(far.kvTransferSeconds() > near.kvTransferSeconds());
    }

    @Test
    void saturatedEvaluationsAllocateAlmostNothing() {
        InferenceStep step = new InferenceStep();
        InferencePlan plan = fp8(1, TRT);
        InferenceWorkload w = InferenceWorkload.saturated(1000, 1000);
        for (int i = 0; i < 5_000; i++) {
            step.evaluate(L8, H100, plan, w);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        int n = 5_000;
        for (int i = 0; i < n; i++) {
            step.evaluate(L8, H100, plan, w);
        }
        double perEval = (double) (threads.getThreadAllocatedBytes(id) - before) / n;
        System.out.println("saturated serving: bytes allocated per evaluation " + perEval);
        // Only the result record (~250 B); the steady state and its steps work in fields.
        assertTrue(perEval < 512, "allocates " + perEval + " B per evaluation");
    }
}
