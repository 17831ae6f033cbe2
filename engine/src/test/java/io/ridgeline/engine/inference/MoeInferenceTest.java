package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.evaluation.Infeasibility;
import io.ridgeline.engine.workload.MlpType;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** MoE serving: expert placement over EP, expected expert coverage, dispatch/combine all-to-all, plan errors. */
class MoeInferenceTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final ModelSpec MIXTRAL = ModelCatalog.bundled().model("mixtral-8x7b");
    static final ModelSpec MIXTRAL_22B = ModelCatalog.bundled().model("mixtral-8x22b");
    static final ModelSpec L13 = ModelCatalog.bundled().model("llama2-13b");
    static final ModelSpec L7 = ModelCatalog.bundled().model("llama2-7b");
    static final Chip H100 = HW.chip("h100-sxm");
    static final SystemSpec NODE = SystemSpec.of(H100, 8, HW.defaultNetwork(H100));

    /** A dense model with Mixtral's attention and all eight experts' width in one MLP (~46.7B parameters). */
    static final ModelSpec DENSE_47B = new ModelSpec("dense-mixtral-equivalent", 32, 4096, 32, 8, 8L * 14336,
            MlpType.SWIGLU, 32000, 32768, false, null, "test: Mixtral 8x7B with every expert always on");

    static InferencePlan plan(int tp, int ep) {
        return InferencePlan.tensorParallel(tp).withParallelism(tp, 1, ep, 1);
    }

    static InferenceResult eval(ModelSpec m, InferencePlan p, InferenceWorkload w) {
        return new InferenceStep().evaluate(m, NODE, p, w);
    }

    // ---- formulas

    @Test
    void expectedDistinctExpertsAreKAtOneTokenAndAllExpertsForLargeBatches() {
        // E (1 - (1 - k/E)^T)
        assertEquals(2, Replica.expectedExpertsTouched(8, 2, 1), 1e-12);
        assertEquals(8 * (1 - 0.75 * 0.75), Replica.expectedExpertsTouched(8, 2, 2), 1e-12);
        assertEquals(8, Replica.expectedExpertsTouched(8, 2, 256), 1e-9);
        assertEquals(8, Replica.expectedExpertsTouched(256, 8, 1), 1e-12);   // DeepSeek-V3 shape: k at batch 1
        assertTrue(Replica.expectedExpertsTouched(256, 8, 64) < 256 * 0.9);  // ... and far from all at batch 64
    }

    @Test
    void busiestRankReadsItsShareOfTouchedExpertsAndAtLeastOne() {
        Replica tp8 = new Replica(MIXTRAL, NODE, plan(8, 1), HW);
        Replica ep8 = new Replica(MIXTRAL, NODE, plan(1, 8), HW);
        Replica ep2 = new Replica(MIXTRAL, NODE, plan(4, 2), HW);
        assertEquals(2, tp8.localExpertsTouched(1), 1e-12);      // every rank holds a slice of both chosen experts
        assertEquals(1, ep8.localExpertsTouched(1), 1e-12);      // the two chosen experts' ranks read one each
        assertEquals(1, ep2.localExpertsTouched(1), 1e-12);
        assertEquals(4, ep2.localExpertsTouched(1000), 1e-9);    // all four it holds
        // Token copies on the busiest rank: tokens x k x capacity factor (1.0 for Mixtral) / ep.
        assertEquals(64 * 2 / 8.0, ep8.localExpertTokens(64), 1e-12);
        assertEquals(64 * 2, tp8.localExpertTokens(64), 1e-12);
    }

    @Test
    void dispatchAndCombineAreTwoAllToAllsOfTokensTimesTopKTimesHiddenPerLayer() {
        InferencePlan p = plan(1, 8);
        Replica r = new Replica(MIXTRAL, NODE, p, HW);
        double bytes = 1 * 2 * 4096 * 2;   // one sequence per attention group x top-2 x hidden x bf16
        Breakdown scratch = new Breakdown();
        double a2a = r.epAllToAllSeconds(bytes, scratch, 0);
        double expected = r.fixed.allToAllLatencySeconds(8) + 7.0 / 8 * bytes
                / (Math.min(r.scaleUpEfficiency, FixedCosts.ALL_TO_ALL_EFFICIENCY_CAP) * NODE.scaleUpBytesPerSecond());
        assertEquals(expected, a2a, 1e-15);
        // Small messages are latency-bound: launch + 0.6 x (p - 1) / 2 steps, like the TP all-reduce.
        assertEquals(H100.family().kernelLaunchSeconds() + 0.6 * 3.5 * NODE.scaleUpStepLatencySeconds(),
                r.fixed.allToAllLatencySeconds(8), 1e-15);
        // TP1 x EP8 at batch 8: the only communication of a decode step is 2 all-to-alls in each of 32 layers.
        Breakdown acc = new Breakdown();
        new DecodeTime(r).stepSeconds(8, 100, acc, 1);
        assertEquals(2 * 32 * a2a, acc.scaleUpSeconds, 1e-12);
        // No EP, no all-to-all.
        assertEquals(0, new Replica(MIXTRAL, NODE, plan(8, 1), HW).epAllToAllSeconds(bytes, scratch, 0));
    }

    @Test
    void allToAllLeavingTheScaleUpDomainUsesTheCollectiveModel() {
        SystemSpec two = SystemSpec.of(H100, 16, HW.defaultNetwork(H100));
        Replica r = new Replica(MIXTRAL, two, plan(2, 8), HW);   // 16 GPUs, EP ranks 2 apart: two domains
        assertTrue(r.epGroup.crossesDomains());
        double bytes = 4 * 2 * 4096 * 2;
        assertEquals(r.fixed.allToAllBaseSeconds() + r.collective.allToAll(bytes, r.epGroup),
                r.epAllToAllSeconds(bytes, new Breakdown(), 0), 1e-15);
    }

    // ---- properties

    @Test
    void moreExpertParallelismNeverIncreasesWeightBytesPerGpu() {
        for (ModelSpec m : new ModelSpec[]{MIXTRAL, MIXTRAL_22B}) {
            for (int tp : new int[]{1, 2, 4, 8}) {
                double last = Double.POSITIVE_INFINITY;
                for (int ep : new int[]{1, 2, 4, 8}) {
                    double w = new InferenceMemory(m, plan(tp, ep), H100.memoryBytes()).weightBytes();
                    assertTrue(w < last, m.name() + " tp" + tp + " ep" + ep);
                    last = w;
                }
            }
        }
        // EP8 on TP1: one expert of 8 per GPU next to the full attention, router and embeddings.
        double expertParams = 3.0 * 4096 * 14336;
        double onePerGpu = 32 * (InferenceMemory.localAttentionParams(MIXTRAL, 1) + expertParams + 4096 * 8
                + 2 * 4096) + 2.0 * 32000 * 4096 + 4096;
        assertEquals(onePerGpu * 2, new InferenceMemory(MIXTRAL, plan(1, 8), H100.memoryBytes()).weightBytes(), 1);
    }

    @Test
    void batchOneDecodeReadsKOverEOfTheExpertWeights() {
        for (int tp : new int[]{1, 2, 4, 8}) {
            Replica r = new Replica(MIXTRAL, NODE, plan(tp, 1), HW);
            double read = r.localExpertsTouched(1) * r.expertParamsLocal;
            double held = r.localExperts * r.expertParamsLocal;
            assertEquals(2.0 / 8, read / held, 1e-12, "tp" + tp);
            // ... and all of them once the batch is large.
            assertEquals(1, r.localExpertsTouched(512) * r.expertParamsLocal / held, 1e-9);
        }
    }

    @Test
    void mixtralBatchOneDecodeIsNearADense13bNotADense47b() {
        InferenceWorkload w = InferenceWorkload.staticBatch(1, 512, 128);
        for (int tp : new int[]{2, 4, 8}) {
            double mix = eval(MIXTRAL, plan(tp, 1), w).tpotSeconds();
            double d13 = eval(L13, plan(tp, 1), w).tpotSeconds();
            double d47 = eval(DENSE_47B, plan(tp, 1), w).tpotSeconds();
            System.out.printf("H100 TP%d batch-1 TPOT (512 in / 128 out): mixtral-8x7b %.2f ms, llama2-13b %.2f ms, "
                    + "dense 47B %.2f ms%n", tp, mix * 1e3, d13 * 1e3, d47 * 1e3);
            assertTrue(mix > 0.9 * d13 && mix < 1.35 * d13, "tp" + tp + ": mixtral " + mix + " vs 13B " + d13);
            // At TP8 per-kernel and all-reduce costs are a large share of both, so the gap narrows.
            assertTrue(mix < (tp == 8 ? 0.8 : 0.6) * d47, "tp" + tp + ": mixtral " + mix + " vs dense 47B " + d47);
        }
    }

    @Test
    void tensorParallelDecodesBatchOneFasterThanExpertParallel() {
        InferenceWorkload w = InferenceWorkload.staticBatch(1, 512, 128);
        double tp8 = eval(MIXTRAL, plan(8, 1), w).tpotSeconds();
        double ep8 = eval(MIXTRAL, plan(1, 8), w).tpotSeconds();
        // EP8: one GPU runs the whole attention and a whole expert per layer; TP8: every GPU an eighth of each.
        assertTrue(ep8 > 1.5 * tp8, "ep8 " + ep8 + " tp8 " + tp8);
    }

    @Test
    void expertParallelServesLargerBatchesThroughDataParallelAttention() {
        // The KV cache of each attention group holds only its share of the batch.
        InferenceMemory tp8 = new InferenceMemory(MIXTRAL, plan(8, 1), H100.memoryBytes());
        InferenceMemory ep8 = new InferenceMemory(MIXTRAL, plan(1, 8), H100.memoryBytes());
        // Mixtral has 8 KV heads: TP8 keeps 1 head of all 8 sequences per GPU, EP8 all heads of 1 sequence.
        assertEquals(tp8.kvCacheBytes(8, 1000), ep8.kvCacheBytes(8, 1000), 1e-6);
        assertEquals(ep8.kvCacheBytes(8, 1000), ep8.kvCacheBytes(5, 1000), 1e-6);   // ceil(5 / 8) = 1 per group
        assertTrue(ep8.maxBatch(1024, 2048) % 8 == 0);
    }

    @Test
    void tpTimesEpIsTheReplica() {
        InferencePlan p = plan(2, 4);
        assertEquals(8, p.gpusPerReplica());
        assertEquals(8, p.gpus());
        assertEquals("tp2-ep4-wbf16-abf16-kvbf16", p.toString());
        InferenceResult r = eval(MIXTRAL, p, InferenceWorkload.staticBatch(8, 256, 32));
        assertTrue(r.feasible(), r.detail());
        assertEquals(8, r.gpusPerReplica());
    }

    // ---- bad input

    @Test
    void rejectsEpThatDoesNotDivideTheExperts() {
        InferencePlan p = plan(1, 3);
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> InferenceStep.validate(MIXTRAL, NODE, p));
        assertEquals("inference plan: plan.ep: expected a divisor of the model's experts (8), each GPU holding "
                + "experts / ep, found 3", e.getMessage());
        InferenceResult r = new InferenceStep().evaluate(MIXTRAL, NODE, p, InferenceWorkload.staticBatch(1, 10, 10));
        assertEquals(Infeasibility.PLAN_SHAPE, r.infeasibility());
    }

    @Test
    void rejectsEpOnADenseModel() {
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> InferenceStep.validate(L7, NODE, plan(2, 2)));
        assertEquals("inference plan: plan.ep: expected 1 for a dense model (llama2-7b), found 2", e.getMessage());
    }

    @Test
    void rejectsTpTimesEpBeyondTheSystem() {
        InferencePlan p = plan(4, 4);
        InvalidInputException e = assertThrows(InvalidInputException.class,
                () -> InferenceStep.validate(MIXTRAL, NODE, p));
        assertEquals("inference plan: plan.tp*ep*pp*dp: expected at most the system's 8 GPUs, found 16",
                e.getMessage());
        InferenceResult r = new InferenceStep().evaluate(MIXTRAL, NODE, p, InferenceWorkload.staticBatch(1, 10, 10));
        assertEquals(Infeasibility.GPU_COUNT, r.infeasibility());
        assertEquals("plan needs 16 GPUs but the system has 8", r.detail());
    }

    @Test
    void fp8WeightsAreSplitTheSameWayWithTheEndsIn16Bits() {
        InferencePlan p = plan(1, 8).withPrecisions(Precision.FP8, Precision.BF16, Precision.BF16);
        // fp8 halves every layer's weights; the embedding and the LM head (vocab x hidden each) stay 16-bit.
        double ends = 2.0 * MIXTRAL.vocab() * MIXTRAL.hidden() * 2;
        double bf16 = new InferenceMemory(MIXTRAL, plan(1, 8), 1e12).weightBytes();
        assertEquals((bf16 - ends) / 2 + ends, new InferenceMemory(MIXTRAL, p, 1e12).weightBytes(), 1);
    }
}
