package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The MoE exchange of attention-data-parallel serving: all-to-all kernels where the ranks share NVLink, and without
 * it the runtimes' fallback, an all-gather of every group's quantized tokens and a reduce-scatter of the 16-bit expert
 * outputs (TensorRT-LLM CommunicationFactory / CutlassFusedMoE.forward_chunk).
 */
class MoeExchangeTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final ModelSpec QWEN3_30B = ModelCatalog.bundled().model("qwen3-30b-a3b");
    static final ServingBehaviour V10 = StackCatalog.bundled().profile("trt-llm@1.0").serving();

    static Replica replica(String chipId, int ep) {
        Chip chip = HW.chip(chipId);
        SystemSpec node = SystemSpec.of(chip, 8, HW.defaultNetwork(chip));
        InferencePlan plan = new InferencePlan(1, 1, ep, 1, Precision.FP4, Precision.FP4, Precision.FP8, true, true,
                V10);
        return new Replica(QWEN3_30B, node, plan, HW);
    }

    @Test
    void anAllGatherRowIsTheQuantizedHiddenStateWithItsScalesExpertIdsAndWeights() {
        // NVFP4: half a byte per value and one fp8 scale per 16 values; eight int32 ids and eight fp32 weights.
        assertEquals(2048 * (0.5 + 1.0 / 16) + 8 * 8, Replica.dispatchBytesPerToken(2048, 8, Precision.FP4), 1e-9);
        assertEquals(2048 * 1.0 + 8 * 8, Replica.dispatchBytesPerToken(2048, 8, Precision.FP8), 1e-9);
        assertEquals(2048 * 2.0 + 8 * 8, Replica.dispatchBytesPerToken(2048, 8, Precision.BF16), 1e-9);
    }

    /** Bytes one rank sends on the scale-up network in one layer's exchange of {@code tokens} tokens. */
    static double bytesSent(Replica r, double tokens) {
        Breakdown acc = new Breakdown();
        r.moeExchangeSeconds(tokens, acc, 1);
        return acc.scaleUpBytes;
    }

    @Test
    void withoutNvlinkEachRankGathersEveryOtherGroupsTokensAndScattersTheirOutputs() {
        Replica pcie = replica("rtx-pro-6000-bse", 4);
        assertTrue(pcie.gatherScatterExchange);
        // Ring all-gather and reduce-scatter: every rank sends (p - 1) rows of each kind.
        double row = Replica.dispatchBytesPerToken(2048, 8, Precision.FP4) + 2048 * 2;
        assertEquals(3 * 1000 * row, bytesSent(pcie, 1000), 1e-6);
    }

    @Test
    void onNvlinkTheTopKCopiesGoThroughAllToAlls() {
        Replica nvlink = replica("b200", 4);
        assertFalse(nvlink.gatherScatterExchange);
        // Dispatch and combine: (p - 1) / p of each token's top-k copies of the 16-bit hidden state, twice.
        assertEquals(2 * 0.75 * 1000 * 8 * 2048 * 2, bytesSent(nvlink, 1000), 1e-6);
    }

    @Test
    void theFallbackMovesLessThanTopKCopiesWouldAtSmallExpertParallelism() {
        // At EP 2 a gathered row (1.2 kB + 4 kB) is far smaller than half of eight 4 kB copies each way (32 kB):
        // the PCIe exchange is not charged as if the runtime sent the copies.
        Replica pcie = replica("rtx-pro-6000-bse", 2);
        Breakdown acc = new Breakdown();
        double gather = pcie.moeExchangeSeconds(4096, acc, 0);
        double copies = 2 * pcie.epAllToAllSeconds(4096 * 8 * 2048 * 2, acc, 0);
        assertTrue(gather < 0.3 * copies, gather + " s vs " + copies + " s");
    }
}
