package io.ridgeline.engine.software;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** NVIDIA NIM versions resolve to the backend their release notes name, plus the OpenAI server in front of it. */
class NimProfileTest {
    static final StackCatalog STACKS = StackCatalog.bundled();

    static ServingBehaviour serving(String framework) {
        return STACKS.resolve(framework, "framework").profile().serving();
    }

    @Test
    void nimOneXServesTensorRtEnginesBehindAnHttpFrontEnd() {
        assertEquals("nim@1.0", STACKS.resolve("nim@1.8.0", "framework").profile().id());
        ServingBehaviour nim = serving("nim@1.8.0");
        ServingBehaviour engines = serving("trt-llm@0.14.0");
        assertTrue(nim.continuousBatching() && nim.chunkedPrefill());
        assertEquals(engines.maxTokensPerStep(), nim.maxTokensPerStep());
        assertEquals(engines.kvMemoryFraction(), nim.kvMemoryFraction());
        assertEquals(engines.cudaGraphs(), nim.cudaGraphs());
        assertEquals(engines.decodeAttention(), nim.decodeAttention());
        assertEquals(0, engines.requestSeconds());
        assertEquals(0.002, nim.requestSeconds(), 1e-12);
    }

    @Test
    void laterReleasesFollowTheirBackends() {
        assertEquals("nim@1.15", STACKS.resolve("nim@1.15.5", "framework").profile().id());
        ServingBehaviour pytorch = serving("nim@1.15.5");
        assertEquals(serving("trt-llm@1.0").cudaGraphs(), pytorch.cudaGraphs());
        assertEquals(serving("trt-llm@1.0").overlapScheduler(), pytorch.overlapScheduler());
        assertTrue(!pytorch.chunkedPrefill());
        assertEquals(0.002, pytorch.requestSeconds(), 1e-12);
        assertEquals("nim@2.0", STACKS.resolve("nim@2.1.4", "framework").profile().id());
        assertEquals(serving("vllm"), serving("nim@2.1.4"));
    }
}
