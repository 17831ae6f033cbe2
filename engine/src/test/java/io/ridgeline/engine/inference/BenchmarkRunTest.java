package io.ridgeline.engine.inference;

import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.spec.InvalidInputException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A benchmark run of a finite dataset queued at once (trtllm-bench throughput): full waves at the steady state of
 * the runtime's concurrency and a last, part-full wave; and the dataset sizes the documents state per length.
 */
class BenchmarkRunTest {
    static final StackCatalog STACKS = StackCatalog.bundled();

    static InferenceResult run(int requests, int in, int out) {
        return new InferenceStep().evaluate(ServingModesTest.L8, ServingModesTest.H100,
                ServingModesTest.fp8(1, ServingModesTest.TRT), InferenceWorkload.saturatedRun(requests, in, out));
    }

    @Test
    void wholeWavesRunAtTheSteadyStateAndALeftOverWaveAtItsOwn() {
        InferenceResult steady = run(0, 1000, 1000);
        int c = (int) steady.concurrency();
        assertTrue(c > 10, "concurrency " + c);
        // N a multiple of the concurrency: every wave is full, the run's throughput is the steady state's.
        assertEquals(steady.servingOutputTokensPerSecondPerGpu(), run(3 * c, 1000, 1000)
                .servingOutputTokensPerSecondPerGpu(), 1e-9 * steady.servingOutputTokensPerSecondPerGpu());
        // One request more: a second wave of one request, each wave one request's lifetime at its own steady state.
        InferenceResult one = run(1, 1000, 1000);
        double full = c * 1000.0 / steady.servingOutputTokensPerSecondPerGpu();
        double last = 1000.0 / one.servingOutputTokensPerSecondPerGpu();
        double expected = (c + 1) * 1000.0 / (full + last);
        InferenceResult plusOne = run(c + 1, 1000, 1000);
        assertEquals(expected, plusOne.servingOutputTokensPerSecondPerGpu(), 1e-9 * expected);
        assertTrue(plusOne.servingOutputTokensPerSecondPerGpu() < steady.servingOutputTokensPerSecondPerGpu());
        assertEquals(c, plusOne.concurrency(), 0);
        // Fewer requests than the runtime holds: all admitted at once, one wave of them.
        assertEquals(10, run(10, 1000, 1000).concurrency(), 0);
    }

    @Test
    void aBenchmarkRowRunsTheDatasetItsDocumentStates(@TempDir Path dir) throws IOException {
        assertEquals(3000, requests(dir, "trt-llm@1.0", 1000, 1000));
        assertEquals(30000, requests(dir, "trt-llm@0.17", 128, 128));
        assertEquals(1500, requests(dir, "trt-llm@1.0", 1000, 2000));
        assertEquals(0, requests(dir, "trt-llm@0.17", 1000, 2000)); // the engine-flow table has no 1000/2000 run
        assertEquals(1000, requests(dir, "trt-llm@1.2", 32768, 1024));
        assertEquals(0, requests(dir, "trt-llm", 1000, 1000)); // not in the developer guide's table: steady state
        assertEquals(0, requests(dir, "vllm", 1000, 1000));
    }

    static int requests(Path dir, String framework, int in, int out) throws IOException {
        Path f = dir.resolve("c.csv");
        Files.writeString(f, "case_id,phase,batch,input_len,output_len,metric,framework\n"
                + "x,inference,," + in + "," + out + ",output_tokens_per_s_per_gpu," + framework + "\n");
        CsvTable.Row r = CsvTable.read(f).rows().get(0);
        InferenceWorkload w = InferenceCases.workload(r, InferenceCases.runtime(r, STACKS));
        assertEquals(ServingMode.SATURATED, w.mode());
        return w.requests();
    }

    @Test
    void aRunAllocatesNoMoreThanTheSteadyState() {
        InferenceStep step = new InferenceStep();
        InferencePlan plan = ServingModesTest.fp8(1, ServingModesTest.TRT);
        InferenceWorkload w = InferenceWorkload.saturatedRun(3001, 1000, 1000);
        for (int i = 0; i < 5_000; i++) {
            step.evaluate(ServingModesTest.L8, ServingModesTest.H100, plan, w);
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        int n = 5_000;
        for (int i = 0; i < n; i++) {
            step.evaluate(ServingModesTest.L8, ServingModesTest.H100, plan, w);
        }
        double perEval = (double) (threads.getThreadAllocatedBytes(id) - before) / n;
        // Only the result record, as the steady state (ServingModesTest): the waves reuse its fields.
        assertTrue(perEval < 512, "allocates " + perEval + " B per evaluation");
    }

    @Test
    void aNegativeRequestCountIsAnErrorNamingIt() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> InferenceWorkload.saturatedRun(-1, 128, 128));
        assertTrue(e.getMessage().contains("workload.requests"), e.getMessage());
    }
}
