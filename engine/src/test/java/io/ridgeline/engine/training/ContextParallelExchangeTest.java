package io.ridgeline.engine.training;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.CollectiveModel;
import io.ridgeline.engine.network.Group;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.parallelism.Recompute;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.software.ContextParallelExchange;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How context parallelism exchanges K/V per stack (TrainingBehaviour.cpExchange, expandedKvHeads): Transformer
 * Engine's p2p ring hides behind the layer; PyTorch 2.6's context_parallel all-gathers the K/V chunks once per
 * attention call (hidden only behind the first sub-attention in eager mode, not at all under torch.compile, where the
 * traced collectives wait where they are issued) and sends fp32 dK/dV around the ring in backward; torchtitan's Llama
 * repeats grouped K/V to every query head before SDPA, so its exchange carries query-width K/V.
 */
class ContextParallelExchangeTest {
    private static final HardwareCatalog HW = HardwareCatalog.bundled();
    private static final StackCatalog STACKS = StackCatalog.bundled();
    private static final ModelSpec LLAMA_8B = ModelCatalog.bundled().model("llama3.1-8b");
    private static final ModelSpec LLAMA_405B = ModelCatalog.bundled().model("llama3.1-405b");
    private static final Chip CHIP = HW.chip("h100-sxm-96g");
    private static final SystemSpec NODE = SystemSpec.of(CHIP, 8, HW.defaultNetwork(CHIP));
    private static final Group CP8 = new Group(8, 8, 1);
    private static final int SEQ = 262144;

    private static TrainingPlan plan(String stack, int tp, int cp) {
        return new TrainingPlan(tp, 1, 1, cp, 1, tp > 1, 1, 3, 1, 1, Recompute.FULL, Precision.FP8,
                STACKS.profile(stack).training());
    }

    private static LayerShape shape(String stack) {
        return LayerShape.of(LLAMA_8B, SEQ, plan(stack, 1, 8), Group.SINGLE, CP8, Group.SINGLE, false);
    }

    private static CollectiveModel collectives() {
        return new CollectiveModel(NODE, HW.curve(CHIP));
    }

    @Test
    void profilesSayHowTheyExchange() {
        assertEquals(ContextParallelExchange.ALLGATHER_COMPILED, STACKS.profile("torchtitan").training().cpExchange());
        assertEquals(ContextParallelExchange.ALLGATHER, STACKS.profile("pytorch-fsdp").training().cpExchange());
        for (String id : new String[] {"nemo@24.07", "megatron-bridge@25.11", "megatron-lm@2021", "llm-foundry"}) {
            assertEquals(ContextParallelExchange.RING, STACKS.profile(id).training().cpExchange(), id);
            assertFalse(STACKS.profile(id).training().expandedKvHeads(), id);
        }
        assertTrue(STACKS.profile("torchtitan").training().expandedKvHeads());
    }

    @Test
    void expandedKvHeadsCarryTheQueryWidth() {
        // Llama 3.1 8B: 32 query heads over 8 K/V heads.
        assertEquals(4, ContextParallelTime.kvChunkBytes(shape("torchtitan"))
                / ContextParallelTime.kvChunkBytes(shape("pytorch-fsdp")), 1e-12);
        // Llama 3.1 405B at TP 8: 16 query heads and 1 K/V head per rank.
        Group tp8 = new Group(8, 8, 1);
        Group cp8 = new Group(8, 1, 8);
        LayerShape titan = LayerShape.of(LLAMA_405B, SEQ, plan("torchtitan", 8, 8), tp8, cp8, Group.SINGLE, false);
        LayerShape plain = LayerShape.of(LLAMA_405B, SEQ, plan("pytorch-fsdp", 8, 8), tp8, cp8, Group.SINGLE, false);
        assertEquals(16, ContextParallelTime.kvChunkBytes(titan) / ContextParallelTime.kvChunkBytes(plain), 1e-12);
        // 32,768 positions per rank x K and V x 2048 wide x 2 B.
        assertEquals(32768.0 * 2 * 2048 * 2, ContextParallelTime.kvChunkBytes(titan), 1);
    }

    @Test
    void compiledAllGatherIsExposedWhateverTheComputeAroundIt() {
        LayerShape s = shape("torchtitan");
        CollectiveModel c = collectives();
        double gather = c.allGather(8 * ContextParallelTime.kvChunkBytes(s), CP8);
        double send = c.sendRecv(2 * ContextParallelTime.kvChunkBytes(s), false); // fp32 dK/dV
        ContextParallelTime cp = new ContextParallelTime(collectives());
        assertTrue(gather > 0);
        assertEquals(gather, cp.forward(s, 1e6, 1e6), 1e-12 * gather);
        assertEquals(gather + 8 * send, cp.backward(s, 1e6, 1e6), 1e-12 * gather);
    }

    @Test
    void eagerAllGatherHidesOnlyBehindTheFirstSubAttention() {
        LayerShape s = shape("pytorch-fsdp");
        double gather = collectives().allGather(8 * ContextParallelTime.kvChunkBytes(s), CP8);
        ContextParallelTime cp = new ContextParallelTime(collectives());
        // The layer's other GEMMs do not hide it; one eighth of the attention core does, up to its length.
        assertEquals(gather, cp.forward(s, 0, 1e6), 1e-12 * gather);
        assertEquals(0.5 * gather, cp.forward(s, 8 * 0.5 * gather, 1e6), 1e-9 * gather);
        assertEquals(0, cp.forward(s, 8 * gather, 0), 0);
    }

    @Test
    void theRingHidesBehindTheLayersGemms() {
        LayerShape s = shape("nemo@24.07");
        ContextParallelTime cp = new ContextParallelTime(collectives());
        assertEquals(0, cp.forward(s, 0, 1), 0);
        assertTrue(cp.forward(s, 0, 0) > 0);
    }

    @Test
    void aTorchtitanCp8StepPaysItsExchange() {
        // Llama 3.1 8B at 256k tokens over CP 8 on one node (torchtitan's Table 2 layout): the exchange is on the
        // critical path, and it costs more than the same plan would under the eager rotation.
        TrainingStep step = new TrainingStep(HW);
        TrainingResult titan = step.evaluate(LLAMA_8B, SEQ, NODE, plan("torchtitan", 1, 8));
        assertTrue(titan.cpCommSeconds() > 0.02 * titan.stepTimeSeconds(), "cp " + titan.cpCommSeconds());
        TrainingResult ring = step.evaluate(LLAMA_8B, SEQ, NODE, plan("nemo@24.07", 1, 8));
        assertEquals(0, ring.cpCommSeconds(), 0);
    }
}
