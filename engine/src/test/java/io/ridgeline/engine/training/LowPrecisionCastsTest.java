package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.ops.MemoryBoundOp;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.LowPrecisionRecipe;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.software.TrainingBehaviour;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * FP8 casts per pass (docs/MODEL.md sec. 3): forward quantizes every linear's input, backward every linear's output
 * gradient (Transformer Engine's fp8_cast_transpose on grad_output), which for a gated MLP is the wider tensor; MoE
 * layers over every routed copy at the expert width, latent attention over its five projections' outputs.
 */
class LowPrecisionCastsTest {
    private static final HardwareCatalog HW = TrainingFixtures.HW;
    private static final SystemSpec H100 = SystemSpec.of(HW.chip("h100-sxm"), 8, HW.defaultNetwork(HW.chip("h100-sxm")));
    private static final Group ONE = new Group(1, 1, 1);

    private final MemoryBoundOp memory = new MemoryBoundOp(H100.chip());
    private final LayerTime layer = new LayerTime(new GemmModel(H100.chip()), memory,
            new CollectiveModel(H100, HW.curve(H100.chip())));

    private static LayerShape shape(ModelSpec model, int seq, Precision precision) {
        TrainingBehaviour sw = StackCatalog.bundled().profile("nemo@24.07").training();
        TrainingPlan plan = new TrainingPlan(1, 1, 8, 1, 1, false, 1, 1, 1, 64, Recompute.NONE, precision, sw);
        return LayerShape.of(model, seq, plan, ONE, ONE, ONE, false);
    }

    /** A plan of {@code stack} with EP 8 over the 8 GPUs (16 local experts of Qwen3-30B-A3B). */
    private static LayerShape expertParallel(ModelSpec model, String stack, Precision precision) {
        TrainingBehaviour sw = StackCatalog.bundled().profile(stack).training();
        TrainingPlan plan = new TrainingPlan(1, 1, 8, 1, 8, false, 1, 1, 1, 64, Recompute.NONE, precision, sw);
        return LayerShape.of(model, 4096, plan, ONE, ONE, new Group(8, 8, 1), false);
    }

    /** Memory-bound seconds FP8 adds over BF16 to the forward or the backward of one layer: the casts alone. */
    private double castSeconds(ModelSpec model, boolean backward) {
        return castSeconds(shape(model, 4096, Precision.FP8), shape(model, 4096, Precision.BF16), backward);
    }

    private double castSeconds(LayerShape fp8, LayerShape bf16, boolean backward) {
        return backward
                ? layer.backward(fp8, 0, false).memorySeconds() - layer.backward(bf16, 0, false).memorySeconds()
                : layer.forward(fp8).memorySeconds() - layer.forward(bf16).memorySeconds();
    }

    /** What the cast-transpose of {@code widthSum} columns of 4096 tokens costs with the delayed recipe (2 + 2 B). */
    private double expected(double widthSum) {
        double elements = 4096 * widthSum;
        return memory.seconds(elements * 4, elements, 4);
    }

    @Test
    void backwardQuantizesOutputGradientsNotInputs() {
        ModelSpec llama = ModelCatalog.bundled().model("llama2-7b"); // h 4096, MHA, SwiGLU ffn 11008
        // Forward inputs: QKV h, projection q = h, MLP-up h, MLP-down ffn.
        assertEquals(expected(3 * 4096 + 11008), castSeconds(llama, false), 1e-12);
        // Backward output gradients: QKV 3h, projection h, MLP-up 2 ffn (gate and up), MLP-down h.
        assertEquals(expected(5 * 4096 + 2 * 11008), castSeconds(llama, true), 1e-12);
    }

    @Test
    void groupedQueryAttentionNarrowsTheQkvGradient() {
        ModelSpec llama70 = ModelCatalog.bundled().model("llama2-70b"); // h 8192, 8 KV heads of 128, ffn 28672
        double qkv = 8192 + 2 * 8 * 128;
        assertEquals(expected(qkv + 2 * 8192 + 2 * 28672), castSeconds(llama70, true), 1e-12);
    }

    @Test
    void moeBackwardQuantizesEveryRoutedCopysOutputGradients() {
        ModelSpec qwen = ModelCatalog.bundled().model("qwen3-30b-a3b"); // h 2048, 32 x 128 heads, 4 KV, 8 of 128 x 768
        double attention = (32 * 128 + 2 * 4 * 128) + 2048;        // QKV and projection output gradients
        double experts = 8 * (2 * 768 + 2048);                      // per routed copy: fc1 (gate and up) and fc2
        assertEquals(expected(attention + experts), castSeconds(qwen, true), 1e-12);
        // Forward quantizes the inputs: QKV h, projection q, fc1 h and fc2 768 per routed copy; no dense MLP input
        // (the router GEMM is 16-bit and Qwen3 has no shared expert).
        assertEquals(expected(2048 + 32 * 128 + 8 * (2048 + 768)), castSeconds(qwen, false), 1e-12);
    }

    @Test
    void latentAttentionBackwardQuantizesItsProjectionsOutputGradients() {
        ModelSpec dsv3 = ModelCatalog.bundled().model("deepseek-v3"); // MLA 1536 / 512 + 64, 128 heads of 128 + 64 / 128
        double attention = 1536 + 128 * (128 + 64) + (512 + 64) + 128 * (128 + 128) + 7168;
        double shared = 2 * 2048 + 7168;                               // one shared expert of 2048, gated
        double routed = 8 * (2 * 2048 + 7168);                         // top-8 routed copies
        assertEquals(expected(attention + shared + routed), castSeconds(dsv3, true), 1e-12);
    }

    @Test
    void recipesQuantizeWithTransformerEnginesKernelCounts() {
        // quantizer.cpp (TE 2.10): current scaling runs amax, scale and cast; MXFP8 and blockwise one cast; only
        // delayed scaling has the fused multi-tensor cast-transpose.
        assertEquals(3, LowPrecisionRecipe.CURRENT.kernelsPerTensor());
        assertEquals(1, LowPrecisionRecipe.MXFP8.kernelsPerTensor());
        assertEquals(1, LowPrecisionRecipe.DELAYED.kernelsPerTensor());
        assertTrue(LowPrecisionRecipe.DELAYED.multiTensorKernel());
        assertFalse(LowPrecisionRecipe.CURRENT.multiTensorKernel());
        assertFalse(LowPrecisionRecipe.MXFP8.multiTensorKernel());
    }

    @Test
    void currentScalingQuantizesEachLocalExpertInItsOwnKernels() {
        ModelSpec qwen = ModelCatalog.bundled().model("qwen3-30b-a3b"); // 128 experts over EP 8: 16 local
        LayerShape fp8 = expertParallel(qwen, "megatron-bridge@25.11", Precision.FP8);
        LayerShape bf16 = expertParallel(qwen, "megatron-bridge@25.11", Precision.BF16);
        assertEquals(LowPrecisionRecipe.CURRENT, fp8.plan().software().lowPrecisionRecipe());
        // Forward: QKV and projection inputs in one kernel each (as before), each of the 16 experts' fc1 and fc2
        // inputs in three (amax, scale, cast): 2 + 2 x 16 x 3 kernels, with current scaling's 6 B per element.
        double forward = 4096 * (2048 + 32 * 128 + 8 * (2048 + 768.0));
        assertEquals(memory.seconds(forward * 6, forward, 2 + 2 * 16 * 3), castSeconds(fp8, bf16, false), 1e-12);
        // Backward: the experts' two output gradients per expert likewise.
        double backward = 4096 * ((32 * 128 + 2 * 4 * 128) + 2048 + 8 * (2 * 768 + 2048.0));
        assertEquals(memory.seconds(backward * 6, backward, 2 + 2 * 16 * 3), castSeconds(fp8, bf16, true), 1e-12);
    }

    @Test
    void delayedScalingQuantizesAllLocalExpertsInOneKernel() {
        ModelSpec qwen = ModelCatalog.bundled().model("qwen3-30b-a3b");
        LayerShape fp8 = expertParallel(qwen, "nemo@24.07", Precision.FP8);
        LayerShape bf16 = expertParallel(qwen, "nemo@24.07", Precision.BF16);
        double forward = 4096 * (2048 + 32 * 128 + 8 * (2048 + 768.0));
        assertEquals(memory.seconds(forward * 4, forward, 4), castSeconds(fp8, bf16, false), 1e-12);
    }
}
