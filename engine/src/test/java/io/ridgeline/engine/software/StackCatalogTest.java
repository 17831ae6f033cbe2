package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.InvalidInputException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StackCatalogTest {
    private final StackCatalog catalog = StackCatalog.bundled();

    @Test
    void everyBundledValueHasASource() {
        for (StackProfile p : catalog.profiles().values()) {
            if (p.trains()) {
                for (String k : TrainingBehaviour.KEYS) {
                    if (p.source("training." + k) != null) {
                        assertFalse(p.source("training." + k).isBlank(), p.id() + " training." + k);
                    }
                }
            }
            assertFalse(p.sources().isEmpty(), p.id());
        }
    }

    @Test
    void everyServingValueHasASource() {
        for (StackProfile p : catalog.profiles().values()) {
            if (p.serves()) {
                for (String k : ServingBehaviour.KEYS) {
                    assertNotNull(p.source("serving." + k), p.id() + " serving." + k);
                    assertFalse(p.source("serving." + k).isBlank(), p.id() + " serving." + k);
                }
            }
        }
    }

    @Test
    void megatronBridgeProfilesKeepTheFrameworksDefaultFp8RecipeOnEveryGpu() {
        // Megatron-Bridge's MixedPrecisionConfig.fp8_recipe defaults to "tensorwise" (current scaling) whatever the
        // GPU; MXFP8 is a per-run choice (docs/MODEL.md, eleventh pass (MoE)), so no profile keys the recipe on the
        // chip.
        int bridges = 0;
        for (StackProfile p : catalog.profiles().values()) {
            if (p.id().startsWith("megatron-bridge@")) {
                bridges++;
                assertEquals(LowPrecisionRecipe.CURRENT, p.training().lowPrecisionRecipe(), p.id());
                assertTrue(p.source("training.low_precision_recipe").contains("'tensorwise'"), p.id());
            }
        }
        assertTrue(bridges >= 4, "the bundled catalogue's Megatron-Bridge profiles");
    }

    @Test
    void tensorRtLlmVersionsCarryTheirBenchmarksBehaviour() {
        ServingBehaviour v05 = catalog.profile("trt-llm@0.5.0").serving();
        ServingBehaviour v08 = catalog.profile("trt-llm@0.8.0").serving();
        ServingBehaviour v14 = catalog.profile("trt-llm@0.14.0").serving();
        ServingBehaviour v17 = catalog.profile("trt-llm@0.17").serving();
        ServingBehaviour v20 = catalog.profile("trt-llm@0.20").serving();
        ServingBehaviour v10 = catalog.profile("trt-llm@1.0").serving();
        // gptSessionBenchmark: static batches, masked MHA then XQA for Llama-2-70B's shape, 16-bit attention/experts.
        assertFalse(v05.continuousBatching());
        assertEquals(DecodeAttention.MASKED_MHA, v05.decodeAttention());
        assertEquals(DecodeAttention.XQA_HEAD128_GROUP8, v08.decodeAttention());
        assertFalse(v08.fp8ContextAttention());
        assertFalse(v08.quantizedMoe());
        assertTrue(v05.identicalPrompts());
        assertFalse(v08.identicalPrompts());
        // trtllm-bench on TensorRT engines: in-flight batching with chunked context, no graphs, no overlap.
        assertTrue(v14.continuousBatching());
        assertTrue(v14.chunkedPrefill());
        assertFalse(v14.cudaGraphs());
        assertFalse(v14.overlapScheduler());
        assertEquals(DecodeAttention.GROUPED, v14.decodeAttention());
        assertEquals(0.90, v14.kvMemoryFraction(), 1e-12);
        assertEquals(0.95, v17.kvMemoryFraction(), 1e-12);
        // 0.20 is the PyTorch backend of 1.0 with the documented 0.95 KV fraction.
        assertTrue(v20.overlapScheduler());
        assertTrue(v20.cudaGraphs());
        assertTrue(v20.moeAttentionDp());
        assertEquals(v10.hostSecondsPerRequest(), v20.hostSecondsPerRequest(), 0);
        assertEquals(0.95, v20.kvMemoryFraction(), 1e-12);
    }

    @Test
    void resolvesExactIdsAndInheritsThroughExtends() {
        StackCatalog.Resolution r = catalog.resolve("megatron-lm@2022", "framework");
        assertTrue(r.exact());
        assertEquals(AttentionKernel.UNFUSED, r.profile().training().attention());
        // megatron-lm@2022 sets nothing itself: the value and its source come from megatron-lm@2021.
        assertEquals(catalog.profile("megatron-lm@2021").source("training.attention"),
                r.profile().source("training.attention"));
    }

    @Test
    void resolvesALaterVersionToTheLatestCataloguedOneNotNewer() {
        StackCatalog.Resolution later = catalog.resolve("megatron-bridge@26.02", "framework");
        assertFalse(later.exact());
        assertEquals("megatron-bridge@25.11", later.profile().id());
        assertEquals("trt-llm@1.0", catalog.resolve("trt-llm@1.1.0rc1", "framework").profile().id());
        assertEquals("trt-llm@1.2", catalog.resolve("trt-llm@1.3.0rc1", "framework").profile().id());
        assertEquals("trt-llm@0.8.0", catalog.resolve("trt-llm@0.9.0", "framework").profile().id());
        assertEquals("trt-llm@0.5.0", catalog.resolve("trt-llm@0.6.1", "framework").profile().id());
        assertEquals("trt-llm@0.17", catalog.resolve("trt-llm@0.18.2", "framework").profile().id());
        assertEquals("megatron-bridge@25.11 -> megatron-bridge@25.11", "megatron-bridge@25.11 -> "
                + catalog.resolve("megatron-bridge@25.11", "framework").profile().id());
    }

    @Test
    void comparesVersionsNumerically() {
        assertTrue(StackCatalog.compareVersions("24.07", "25.11") < 0);
        assertTrue(StackCatalog.compareVersions("1.10", "1.9") > 0);
        assertEquals(0, StackCatalog.compareVersions("1.0", "1.0.0"));
    }

    @Test
    void rejectsAnUnknownStackNamingTheFieldAndTheCloseOnes() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> catalog.resolve("megatron-brige@25.11", "framework"));
        assertTrue(e.getMessage().startsWith("software: framework: expected a catalogued stack: one of ["),
                e.getMessage());
        assertTrue(e.getMessage().contains("did you mean 'megatron-bridge@25.11'?"), e.getMessage());
    }

    /** Every training key after {@code attention}, each with a value and a source. */
    private static String otherTrainingKeys() {
        String values = """
                      dropout: {value: false, source: "docs"}
                      grad_reduce_overlap: {value: true, source: "docs"}
                      param_gather_overlap: {value: true, source: "docs"}
                      weight_bytes: {value: 2, source: "docs"}
                      gradient_bytes: {value: 2, source: "docs"}
                      optimizer_bytes: {value: 12, source: "docs"}
                      reduce_bytes: {value: 2, source: "docs"}
                      default_zero: {value: 1, source: "docs"}
                      prefetch_units: {value: 1, source: "docs"}
                      backward_prefetch: {value: pre, source: "docs"}
                      max_live_params: {value: 0, source: "docs"}
                      regather_on_recompute: {value: false, source: "docs"}
                      flat_dp_collectives: {value: false, source: "docs"}
                      tp_comm_overlap: {value: true, source: "docs"}
                      low_precision_recipe: {value: current, source: "docs"}
                      cuda_graphs: {value: false, source: "docs"}
                      host_us_per_kernel: {value: 35, source: "docs"}
                      recompute: {value: auto, source: "docs"}
                      selective_recompute: {value: true, source: "docs"}
                      reserve_gib: {value: 2, source: "docs"}
                      fragmentation: {value: 0, source: "docs"}
                      expert_tensor_parallel: {value: false, source: "docs"}
                      moe_dispatcher: {value: alltoall, source: "docs"}
                      fused_cross_entropy: {value: true, source: "docs"}
                      sequence_parallel: {value: true, source: "docs"}
                      moe_fp8_fast_path: {value: false, source: "docs"}
                      yarn_rope_fusion: {value: false, source: "docs"}
                      moe_expert_bias: {value: eager_output, source: "docs"}
                      fp8_window_backward_skips: {value: true, source: "docs"}
                      fused_moe_dbias_factor: {value: 1, source: "docs"}
                      op_level_selective_recompute: {value: false, source: "docs"}
                      cp_exchange: {value: ring, source: "docs"}
                      expanded_kv_heads: {value: false, source: "docs"}
                      glu_clamp_fusion: {value: false, source: "docs"}
                """;
        return values;
    }

    @Test
    void aCompleteTrainingSectionLoadsWithEveryValueAndSource() {
        StackCatalog c = StackCatalog.parse("s.yaml", "stacks:\n  x@1:\n    training:\n"
                + "      attention: {value: flash3, source: \"docs\"}\n" + otherTrainingKeys());
        TrainingBehaviour t = c.profile("x@1").training();
        assertEquals(AttentionKernel.FLASH3, t.attention());
        assertEquals(LowPrecisionRecipe.CURRENT, t.lowPrecisionRecipe());
        assertEquals(35e-6, t.hostSecondsPerKernel(), 1e-12);
        assertEquals(2.0 * (1L << 30), t.reserveBytes(), 1);
        assertEquals(TrainingBehaviour.KEYS.size(), c.profile("x@1").sources().size());
    }

    @Test
    void aTrainingSectionMissingAKeyNamesIt() {
        String yaml = "stacks:\n  x@1:\n    training:\n" + otherTrainingKeys();
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> StackCatalog.parse("s.yaml", yaml));
        assertTrue(e.getMessage().contains("stacks.x@1.training.attention: expected a value (own or inherited through "
                + "extends), found nothing"), e.getMessage());
    }

    @Test
    void rejectsAValueWithoutItsSourceAtItsLine() {
        String yaml = "stacks:\n  x@1:\n    training:\n      attention: {value: flash2}\n" + otherTrainingKeys();
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> StackCatalog.parse("s.yaml", yaml));
        assertEquals("s.yaml:4:18: stacks.x@1.training.attention.source: expected where the value comes from "
                + "(release notes, docs, code), found no 'source' key", e.getMessage());
    }

    @Test
    void rejectsUnknownKeysAndMissingValuesAndCycles() {
        String yaml = """
                stacks:
                  a@1:
                    extends: b@1
                    training:
                      atention: {value: flash2, source: "docs"}
                  b@1:
                    extends: a@1
                """;
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> StackCatalog.parse("s.yaml", yaml));
        assertTrue(e.getMessage().contains("stacks.a@1.training.atention: expected a known key: one of "
                + "[attention, backward_prefetch, cp_exchange, cuda_graphs"), e.getMessage());
        assertTrue(e.getMessage().contains("(did you mean 'attention'?), found an unknown key"),
                e.getMessage());
        assertTrue(e.getMessage().contains("expected a chain of extends without a cycle"), e.getMessage());
    }

    @Test
    void benchmarkDatasetsAreReadPerLengthAndABadTableNamesItsField() throws java.io.IOException {
        BenchmarkRequests v10 = catalog.profile("trt-llm@1.0").serving().benchmarkRequests();
        assertEquals(30000, v10.requests(128, 128));
        assertEquals(1000, v10.requests(20000, 2000));
        assertEquals(0, v10.requests(1024, 1024));
        assertEquals(BenchmarkRequests.NONE, catalog.profile("vllm").serving().benchmarkRequests());
        String text;
        try (var in = StackCatalog.class.getResourceAsStream("/catalog/stacks.yaml")) {
            text = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        }
        String bad = text.replace("value: \"1024/1024:3000, 8192/1024:1500", "value: \"1024x1024:3000, 8192/1024:1500");
        assertFalse(bad.equals(text));
        InvalidInputException e = assertThrows(InvalidInputException.class, () -> StackCatalog.parse("s.yaml", bad));
        assertTrue(e.getMessage().contains("stacks.trt-llm@1.2.serving.benchmark_requests: expected input/output:"
                + "requests pairs"), e.getMessage());
        assertTrue(e.getMessage().contains("found '1024x1024:3000"), e.getMessage());
    }

    @Test
    void servingRuntimesServeAndTrainingFrameworksTrain() {
        assertTrue(catalog.profile("trt-llm@1.0").serves());
        assertFalse(catalog.profile("trt-llm@1.0").trains());
        assertTrue(catalog.profile("llm-foundry").trains());
        assertNotNull(catalog.profile("vllm").serving());
    }
}
