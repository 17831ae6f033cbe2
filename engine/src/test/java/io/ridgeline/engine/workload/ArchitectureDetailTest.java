package io.ridgeline.engine.workload;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The catalogued public configurations reproduce the parameter counts their model cards state. */
class ArchitectureDetailTest {
    private final ModelCatalog catalog = ModelCatalog.bundled();

    @Test
    void deepSeekV3HasItsPublishedTotalAndActiveParameters() {
        ModelSpec m = catalog.model("deepseek-v3");
        // DeepSeek-V3 technical report: 671B total, 37B activated per token (MTP module excluded).
        assertEquals(671e9, m.totalParams(), 0.02 * 671e9);
        assertEquals(37e9, m.activeParams(), 0.03 * 37e9);
        assertEquals(192, m.headDim());
        assertEquals(128, m.valueHeadDim());
        assertEquals(3, m.denseLayers());
    }

    @Test
    void qwen3AndGptOssHeadWidthsDifferFromHiddenOverHeads() {
        ModelSpec q = catalog.model("qwen3-30b-a3b");
        assertEquals(128, q.headDim());
        assertEquals(4096, q.qWidth());
        assertEquals(30.5e9, q.totalParams(), 0.03 * 30.5e9); // Qwen3-30B-A3B model card: 30.5B total, 3.3B active
        assertEquals(3.3e9, q.activeParams(), 0.05 * 3.3e9);
        ModelSpec g = catalog.model("gpt-oss-120b");
        assertEquals(64, g.headDim());
        assertEquals(117e9, g.totalParams(), 0.03 * 117e9); // gpt-oss model card: 117B total, 5.1B active
    }

    @Test
    void slidingWindowLayersAttendToTheWindowOnly() {
        ModelSpec g = catalog.model("gpt-oss-120b");
        // Half the layers causal over s (s/2 keys on average), half over a 128-token window.
        assertEquals(0.5 * 4096 / 2.0 + 0.5 * 128, g.causalKeys(4096), 1e-9);
        assertEquals(4096 / 2.0, catalog.model("llama3-8b").causalKeys(4096), 1e-9);
    }

    @Test
    void aCaseShapeIsCompletedOnlyByAnExactShapeMatch() {
        ModelSpec shape = new ModelSpec("whatever-name", 48, 2048, 32, 4, 768, MlpType.SWIGLU, 151936, 4096, false,
                new MoeSpec(128, 8, 768, 0, 1.0), "case");
        assertSame(catalog.model("qwen3-30b-a3b"), catalog.completing(shape));
        ModelSpec other = new ModelSpec("qwen3-30b-a3b", 47, 2048, 32, 4, 768, MlpType.SWIGLU, 151936, 4096, false,
                new MoeSpec(128, 8, 768, 0, 1.0), "case");
        assertNull(catalog.completing(other), "the name never matches, only the shape");
        assertNull(catalog.completing(catalog.model("llama3-8b")), "models without detail complete nothing");
    }
}
