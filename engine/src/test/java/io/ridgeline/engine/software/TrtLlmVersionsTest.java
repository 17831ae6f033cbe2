package io.ridgeline.engine.software;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every TensorRT-LLM version resolves to the batching its performance documents used. */
class TrtLlmVersionsTest {
    static final StackCatalog STACKS = StackCatalog.bundled();

    static StackProfile resolve(String framework) {
        return STACKS.resolve(framework, "framework").profile();
    }

    @Test
    void versionsFromTenOnBenchmarkInFlightBatching() {
        // perf-overview.md: from v0.10 the tables are in-flight batching, no longer static (gptSessionBenchmark).
        for (String v : new String[]{"0.10.0", "0.11.0", "0.12.0", "0.13.0", "0.14.0", "0.16.0", "0.17.0", "1.0.0"}) {
            assertTrue(resolve("trt-llm@" + v).serving().continuousBatching(), v);
        }
        for (String v : new String[]{"0.5.0", "0.8.0", "0.9.0"}) {
            assertFalse(resolve("trt-llm@" + v).serving().continuousBatching(), v);
        }
        assertEquals("trt-llm@0.10", resolve("trt-llm@0.12.0").id());
    }

    @Test
    void fromNineteenTheBenchmarksRunThePyTorchBackend() {
        // perf-overview.md v0.20 / v1.0: "Starting with v0.19, testing was performed using the PyTorch backend".
        assertEquals("trt-llm@0.17", resolve("trt-llm@0.18.0").id());
        assertEquals("trt-llm@0.19", resolve("trt-llm@0.19.0").id());
        StackProfile v19 = resolve("trt-llm@0.19.0");
        StackProfile v17 = resolve("trt-llm@0.17.0");
        // The PyTorch executor's host work per kernel of an eager step; the TensorRT engine has none.
        assertTrue(v19.serving().eagerHostSecondsPerKernel() > 0);
        assertEquals(0, v17.serving().eagerHostSecondsPerKernel());
        assertEquals(resolve("trt-llm@0.20.0").serving(), v19.serving());
    }

    @Test
    void trtllmBenchVersionsAdmitWithGuaranteedNoEvict() {
        // trtllm-bench throughput pins GUARANTEED_NO_EVICT over its dataclass default MAX_UTILIZATION in every version
        // read (0.12 run.py through the 0.17-era throughput.py), so the 0.14 rows are not max-utilization runs.
        for (String v : new String[]{"0.10.0", "0.12.0", "0.14.0", "0.16.0", "0.17.0"}) {
            StackProfile p = resolve("trt-llm@" + v);
            assertEquals(ServingBehaviour.KvAdmission.RESERVE_FULL, p.serving().kvAdmission(), v);
        }
        String source = resolve("trt-llm@0.14.0").source("serving.kv_admission");
        assertTrue(source != null && source.contains("trtllm-bench") && source.contains("GUARANTEED_NO_EVICT"), source);
    }
}
