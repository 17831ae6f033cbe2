package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Attention-DP groups without chunked prefill (TensorRT-LLM 1.x, MoE with enable_attention_dp): in a saturated run
 * every group prefills its whole prompts in the same steps; online, the prompts land on the groups one by one.
 */
class AttentionDpPhaseTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final ModelSpec MIXTRAL = ModelCatalog.bundled().model("mixtral-8x7b");
    static final ModelSpec QWEN3_30B = ModelCatalog.bundled().model("qwen3-30b-a3b");
    static final SystemSpec NODE = SystemSpec.of(HW.chip("h100-sxm"), 8, HW.defaultNetwork(HW.chip("h100-sxm")));
    static final int IN = 32768;
    static final int OUT = 1024;

    static Replica replica(int ep) {
        return replica(MIXTRAL, ep);
    }

    static Replica replica(ModelSpec model, int ep) {
        InferencePlan plan = InferencePlan.tensorParallel(1).withParallelism(1, 1, ep, 1)
                .withRuntime(StackCatalog.bundled().profile("trt-llm@1.2").serving());
        return new Replica(model, NODE, plan, HW, new GemmModel(NODE.chip()));
    }

    static ContinuousBatching batching(Replica r) {
        return new ContinuousBatching(r, new InferenceMemory(r.model, r.plan, NODE.chip().memoryBytes(),
                r.w4a16Experts));
    }

    /** Step time with {@code prompts} whole prompts beside the saturated decodes of {@code c} requests. */
    static double step(Replica r, double c, double prompts) {
        double d = c * (OUT - 1.0) / OUT;
        return new MixedStep(r).seconds(d, IN + 0.5 * OUT, prompts * IN, IN, prompts, d + prompts,
                new Breakdown(), 0);
    }

    @Test
    void saturatedGroupsPrefillOnePromptEachInTheSameStep() {
        Replica r = replica(4);
        ContinuousBatching cb = batching(r);
        cb.saturated(IN, OUT, 0, 0, null);
        double c = cb.concurrency;
        // Fewer than one prompt per group per step: a step carries no prompt or one on each of the four groups.
        double perGroup = c / OUT / 4;
        assertTrue(perGroup < 1, "prompts per group per step " + perGroup);
        double none = step(r, c, 0);
        double four = step(r, c, 4);
        assertEquals((four - none) / 4, cb.prefillServiceSeconds, 1e-12);
        assertEquals((1 - perGroup) * none + perGroup * four, cb.stepSeconds, 1e-12);
        // In phase, a prompt costs well under the step it lengthens alone: its attention and dense GEMMs run beside
        // three other groups' instead of with those groups waiting at every MoE layer.
        double alone = step(r, c, 1) - none;
        assertTrue(cb.prefillServiceSeconds < 0.6 * alone, cb.prefillServiceSeconds + " s vs " + alone + " s alone");
    }

    @Test
    void onlinePromptsLandOnTheGroupsOneByOne() {
        Replica r = replica(4);
        ContinuousBatching cb = batching(r);
        cb.onlineClients(8, IN, OUT, null);
        double c = cb.decodeSequences * OUT / (OUT - 1.0);
        assertEquals(step(r, c, 1) - step(r, c, 0), cb.prefillServiceSeconds, 1e-9);
    }

    @Test
    void oneGroupIsUnchanged() {
        Replica r = replica(QWEN3_30B, 1);
        ContinuousBatching cb = batching(r);
        cb.saturated(IN, OUT, 0, 0, null);
        double c = cb.concurrency;
        assertTrue(c >= 1, "requests in flight " + c);
        assertEquals(step(r, c, 1) - step(r, c, 0), cb.prefillServiceSeconds, 1e-12);
    }
}
