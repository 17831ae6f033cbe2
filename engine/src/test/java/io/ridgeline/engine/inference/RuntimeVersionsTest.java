package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.software.DecodeAttention;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.workload.MlpType;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the serving runtimes of different versions do differently (catalog/stacks.yaml): the decode attention kernel
 * (masked MHA per query head, XQA for one head shape, grouped), 16-bit context attention and 16-bit experts around
 * fp8 GEMMs, the PyTorch executor's host work per request, attention data parallelism for MoE models, the
 * gptSessionBenchmark's repeated-token prompts, and the busiest attention group of a step.
 */
class RuntimeVersionsTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final StackCatalog STACKS = StackCatalog.bundled();
    static final ServingBehaviour V05 = STACKS.profile("trt-llm@0.5.0").serving();
    static final ServingBehaviour V08 = STACKS.profile("trt-llm@0.8.0").serving();
    static final ServingBehaviour V10 = STACKS.profile("trt-llm@1.0").serving();
    static final ModelSpec L2_70 = ModelCatalog.bundled().model("llama2-70b");
    static final ModelSpec MIXTRAL = ModelCatalog.bundled().model("mixtral-8x7b");
    static final SystemSpec H100 = SystemSpec.of(HW.chip("h100-sxm"), 8, HW.defaultNetwork(HW.chip("h100-sxm")));

    static InferencePlan fp8(int tp, int ep, ServingBehaviour runtime) {
        return InferencePlan.tensorParallel(tp).withParallelism(tp, 1, ep, 1)
                .withPrecisions(Precision.FP8, Precision.FP8, Precision.FP8).withRuntime(runtime);
    }

    @Test
    void maskedMhaReadsEachKvHeadOncePerQueryHead() {
        assertEquals(8, DecodeAttention.MASKED_MHA.kvReadsPerKvHead(128, 8));
        assertEquals(1, DecodeAttention.MASKED_MHA.kvReadsPerKvHead(128, 1));
        assertEquals(1, DecodeAttention.GROUPED.kvReadsPerKvHead(64, 29));
        // TensorRT-LLM 0.8-0.9 XQA: Llama-2-70B's shape only.
        assertEquals(1, DecodeAttention.XQA_HEAD128_GROUP8.kvReadsPerKvHead(128, 8));
        assertEquals(4, DecodeAttention.XQA_HEAD128_GROUP8.kvReadsPerKvHead(128, 4));
        assertEquals(29, DecodeAttention.XQA_HEAD128_GROUP8.kvReadsPerKvHead(64, 29));
    }

    @Test
    void xqaRemovesTheRepeatedKvReadsOfMaskedMhaFromADecodeStep() {
        // Llama-2-70B TP4: 16 query heads and 2 KV heads per rank, groups of 8. A static batch of 256 at 1152 tokens.
        int batch = 256;
        int in = 128;
        int out = 2048;
        InferenceResult mmha = new InferenceStep().evaluate(L2_70, H100, fp8(4, 1, V05),
                InferenceWorkload.staticBatch(batch, in, out));
        InferenceResult xqa = new InferenceStep().evaluate(L2_70, H100, fp8(4, 1, V08),
                InferenceWorkload.staticBatch(batch, in, out));
        double kvPerToken = new InferenceMemory(L2_70, fp8(4, 1, V05), 1e12).kvBytesPerToken();
        double meanContext = in + out / 2.0;
        // Seven extra reads of every sequence's cache per step, at the sustained HBM rate.
        double extra = 7 * batch * meanContext * kvPerToken / HW.chip("h100-sxm").effectiveMemoryBytesPerSecond();
        assertEquals(extra, mmha.tpotSeconds() - xqa.tpotSeconds(), 0.01 * extra);
        // A head-64 model (Falcon-180B-like: 64 query heads over 8 KV heads) gains nothing from that XQA.
        ModelSpec head64 = new ModelSpec("head64", 8, 4096, 64, 8, 16384, MlpType.GELU, 32000, 8192, false, null, "t");
        double a = new InferenceStep().evaluate(head64, H100, fp8(1, 1, V05),
                InferenceWorkload.staticBatch(batch, in, out)).tpotSeconds();
        double b = new InferenceStep().evaluate(head64, H100, fp8(1, 1, V08),
                InferenceWorkload.staticBatch(batch, in, out)).tpotSeconds();
        assertEquals(a, b, 1e-12);
    }

    @Test
    void contextAttentionStays16BitUnlessTheRuntimeRunsFp8Fmha() {
        assertEquals(Precision.BF16, Replica.contextAttentionPrecision(fp8(1, 1, V05)));
        assertEquals(Precision.FP8, Replica.contextAttentionPrecision(fp8(1, 1, V10)));
        // An fp4 model with an fp8 cache runs fp8 FMHA; a 16-bit model runs 16-bit attention everywhere.
        assertEquals(Precision.FP8, Replica.contextAttentionPrecision(fp8(1, 1, V10)
                .withPrecisions(Precision.FP4, Precision.FP4, Precision.FP8)));
        assertEquals(Precision.BF16, Replica.contextAttentionPrecision(InferencePlan.tensorParallel(1)
                .withRuntime(V10)));
    }

    @Test
    void expertsStay16BitWhereTheRuntimeHasNoQuantizedMoeKernels() {
        assertEquals(Precision.BF16, Replica.moeExpertPrecision(fp8(2, 1, V05)));
        assertEquals(Precision.FP8, Replica.moeExpertPrecision(fp8(2, 1, V10)));
        double old = new InferenceMemory(MIXTRAL, fp8(2, 1, V05), 1e12).weightBytes();
        double now = new InferenceMemory(MIXTRAL, fp8(2, 1, V10), 1e12).weightBytes();
        // Every routed expert's bytes double (one byte more per parameter); attention and the rest stay fp8.
        double experts = MIXTRAL.layers() * InferenceMemory.localExpertParams(MIXTRAL, 2, 1);
        assertEquals(experts, old - now, 1);
    }

    @Test
    void repeatedTokenPromptsRouteAWholeBatchToOneSetOfExperts() {
        Replica session05 = new Replica(MIXTRAL, H100, fp8(2, 1, V05), HW);
        Replica session08 = new Replica(MIXTRAL, H100, fp8(2, 1, V08), HW);
        assertEquals(1, session05.distinctRoutedTokens(64 * 128), 0);
        assertEquals(64 * 128, session08.distinctRoutedTokens(64 * 128), 0);
        // So a batch of 64 decodes reading the top-2 experts' weights only, like one sequence.
        assertEquals(2, session05.localExpertsTouched(session05.distinctRoutedTokens(64)), 1e-9);
        assertTrue(session08.localExpertsTouched(session08.distinctRoutedTokens(64)) > 7.99);
    }

    @Test
    void hostWorkPerRequestCapsAHostBoundExecutor() {
        // A 1B model at 4096 requests: the GPU step is short, the PyExecutor's per-request host loop is not, and the
        // overlap scheduler cannot hide more than the GPU step: throughput ~ 1 / host seconds per request. About two
        // prompts start per step here, so the steps run eagerly and also dispatch 16 x 12 + 4 kernels from Python.
        ModelSpec tiny = ModelCatalog.bundled().model("llama3.2-1b");
        InferenceResult r = new InferenceStep().evaluate(tiny, H100, fp8(1, 1, V10),
                InferenceWorkload.saturated(128, 2048));
        double ceiling = 1 / V10.hostSecondsPerRequest();
        double c = r.concurrency();
        double eager = c / (V10.hostSecondsPerStep() + c * V10.hostSecondsPerRequest()
                + (16 * (FixedCosts.DECODE_KERNELS_PER_LAYER + 1) + FixedCosts.DECODE_KERNELS_PER_STEP)
                * V10.eagerHostSecondsPerKernel());
        assertTrue(r.outputTokensPerSecondPerGpu() <= ceiling * 1.01, r.outputTokensPerSecondPerGpu() + " " + ceiling);
        assertTrue(r.outputTokensPerSecondPerGpu() >= eager * 0.95, r.outputTokensPerSecondPerGpu() + " " + eager);
    }

    @Test
    void moeRowsRunAttentionDataParallelWhereTheBenchmarkSaysSo(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("c.csv");
        Files.writeString(f, "case_id,phase,tp,ep,moe_experts,batch,input_len,output_len,metric,framework\n"
                + "moe10,inference,8,,128,,128,128,output_tokens_per_s_per_gpu,trt-llm@1.0\n"
                + "moe17,inference,8,,8,,128,128,output_tokens_per_s_per_gpu,trt-llm@0.17\n"
                + "dense10,inference,8,,,,128,128,output_tokens_per_s_per_gpu,trt-llm@1.0\n");
        var rows = CsvTable.read(f).rows();
        InferencePlan moe10 = InferenceCases.plan(rows.get(0), InferenceCases.runtime(rows.get(0), STACKS));
        InferencePlan moe17 = InferenceCases.plan(rows.get(1), InferenceCases.runtime(rows.get(1), STACKS));
        InferencePlan dense10 = InferenceCases.plan(rows.get(2), InferenceCases.runtime(rows.get(2), STACKS));
        assertEquals(1, moe10.tp());
        assertEquals(8, moe10.ep());
        assertEquals(8, moe17.tp());
        assertEquals(1, moe17.ep());
        assertEquals(8, dense10.tp());
    }

    @Test
    void theBusiestAttentionGroupCarriesAWholePromptWithoutChunking() {
        // Mixtral over 4 attention-data-parallel groups: one 2048-token prompt lands on one group, which then runs the
        // whole prompt while the others wait; with chunked prefill its tokens spread over the groups.
        InferencePlan whole = fp8(1, 4, V10);
        InferencePlan chunked = fp8(1, 4, V10.withLimits(V10.maxBatch(), V10.maxTokensPerStep(), true));
        Breakdown acc = new Breakdown();
        double a = new MixedStep(new Replica(MIXTRAL, H100, whole, HW)).seconds(0, 0, 2048, 2048, 1, 1, 1, acc, 0);
        double b = new MixedStep(new Replica(MIXTRAL, H100, chunked, HW)).seconds(0, 0, 2048, 2048, 1, 1, 1, acc, 0);
        assertTrue(a > 1.5 * b, a + " vs " + b);
    }

    @Test
    void aStaticSessionKeepsBackOnlyWhatItsRuntimeDoes() {
        // gptSessionBenchmark (trt-llm@0.5.0) allocates the batch's contiguous cache exactly next to its own reserve; a
        // runtime budgeting 90% of the whole device (the engine default, as vLLM) leaves 10% untouched besides it.
        ModelSpec l7 = ModelCatalog.bundled().model("llama2-7b");
        double capacity = H100.chip().memoryBytes();
        InferencePlan session = InferencePlan.tensorParallel(1).withRuntime(V05);
        InferencePlan budgeted = InferencePlan.tensorParallel(1).withRuntime(ServingBehaviour.ENGINE_DEFAULT);
        assertEquals(V05.runtimeReserveBytes(), new InferenceMemory(l7, session, capacity).reserveBytes(), 0);
        assertEquals(ServingBehaviour.ENGINE_DEFAULT.runtimeReserveBytes() + 0.1 * capacity,
                new InferenceMemory(l7, budgeted, capacity).reserveBytes(), 1);

        // The largest static batch the session runs needs more than 90% of the device, and the budgeted runtime
        // refuses that batch.
        InferenceStep step = new InferenceStep();
        int largest = 0;
        InferenceResult last = null;
        for (int batch = 1; batch < 400; batch++) {
            InferenceResult r = step.evaluate(l7, H100, session, InferenceWorkload.staticBatch(batch, 1024, 1024));
            if (!r.feasible()) {
                break;
            }
            largest = batch;
            last = r;
        }
        assertTrue(largest > 1 && largest < 399, "largest static batch " + largest);
        assertTrue(last.totalMemoryBytes() > 0.9 * capacity, last.totalMemoryBytes() / capacity + " of the device");
        assertTrue(!step.evaluate(l7, H100, budgeted, InferenceWorkload.staticBatch(largest, 1024, 1024)).feasible());
    }
}
