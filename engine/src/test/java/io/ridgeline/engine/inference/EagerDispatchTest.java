package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.software.ServingBehaviour;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PyTorch executor's host work (catalog/stacks.yaml trt-llm@1.0, docs/INFERENCE.md "Host work of the PyTorch
 * executor"): a step that carries prompts is not a captured CUDA graph, so every operator of it is dispatched from
 * Python (eager_host_us_per_kernel), on top of the per-request loop (host_request_us); a generation-only step replays
 * its graph and pays the per-request loop only.
 */
class EagerDispatchTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final StackCatalog STACKS = StackCatalog.bundled();
    static final ServingBehaviour PYTORCH = STACKS.profile("trt-llm@1.0").serving();
    static final ServingBehaviour ENGINE = STACKS.profile("trt-llm@0.17").serving();
    static final SystemSpec B200 = SystemSpec.of(HW.chip("b200"), 8, HW.defaultNetwork(HW.chip("b200")));

    static MixedStep step(ModelSpec model, int ep, ServingBehaviour runtime) {
        InferencePlan plan = InferencePlan.tensorParallel(1).withParallelism(1, 1, ep, 1)
                .withPrecisions(Precision.FP4, Precision.FP4, Precision.FP8).withRuntime(runtime);
        return new MixedStep(new Replica(model, B200, plan, HW));
    }

    @Test
    void aStepWithAPromptDispatchesEveryKernelFromTheHost() {
        // GPT-OSS-20B on one B200, 64 decodes and one 128-token prompt: the GPU step is a few ms, the eager dispatch
        // of 24 MoE layers x (11 + context attention + 3 MoE kernels) + 4 is 364 x 37 us = 13.5 ms.
        ModelSpec m = ModelCatalog.bundled().model("gpt-oss-20b");
        MixedStep s = step(m, 1, PYTORCH);
        Breakdown acc = new Breakdown();
        double mixed = s.seconds(64, 1024, 128, 128, 1, 65, 1, acc, 0);
        double decodeOnly = s.seconds(64, 1024, 0, 0, 0, 64, 1, acc, 0);
        double dispatch = (24 * (FixedCosts.DECODE_KERNELS_PER_LAYER + 1 + FixedCosts.MOE_EXTRA_KERNELS_PER_LAYER)
                + FixedCosts.DECODE_KERNELS_PER_STEP) * PYTORCH.eagerHostSecondsPerKernel();
        assertEquals(37e-6, PYTORCH.eagerHostSecondsPerKernel(), 1e-12);
        double host = PYTORCH.hostSecondsPerStep() + 65 * PYTORCH.hostSecondsPerRequest() + dispatch;
        // Host-bound: the overlap scheduler hides the GPU step behind the host work, so the step is the host work.
        assertEquals(host, mixed, 1e-9, mixed + " " + host);
        // The graph-replayed decode step pays no dispatch: it is shorter than the eager one by most of it.
        assertTrue(mixed - decodeOnly > 0.75 * dispatch, decodeOnly + " " + mixed + " " + dispatch);
    }

    @Test
    void aCompiledEngineDispatchesNothingFromPython() {
        // The TensorRT engine flow (0.14-0.17) enqueues a compiled step: the same mixed step costs its GPU time
        // (eager launches) and the C++ loop's 0.2 ms, well under the 13.5 ms a Python dispatch of it would take.
        assertEquals(0, ENGINE.eagerHostSecondsPerKernel());
        ModelSpec m = ModelCatalog.bundled().model("gpt-oss-20b");
        double t = step(m, 1, ENGINE).seconds(64, 1024, 128, 128, 1, 65, 1, new Breakdown(), 0);
        assertTrue(t < 0.5 * 364 * 37e-6, "" + t);
    }

    @Test
    void thePerRequestCostIsTheSourcedIterationLessItsEagerDispatch() {
        // PR #10273: 45.11 ms per iteration at 1536 requests per rank, GPT-OSS-120B with attention DP 2 (tp 1, ep 2),
        // steps carrying prompts; the dispatch counted with the engine's own kernels: 36 x (11 + 1 + 3 + 2) + 4.
        ModelSpec m = ModelCatalog.bundled().model("gpt-oss-120b");
        double kernels = 36 * (FixedCosts.DECODE_KERNELS_PER_LAYER + 1 + FixedCosts.MOE_EXTRA_KERNELS_PER_LAYER + 2)
                + FixedCosts.DECODE_KERNELS_PER_STEP;
        assertEquals(616, kernels);
        double perRequest = (45.11e-3 - kernels * PYTORCH.eagerHostSecondsPerKernel()) / 1536;
        assertEquals(perRequest, PYTORCH.hostSecondsPerRequest(), 0.05e-6);
        // And a host-bound step of that shape in the engine takes the sourced 45.11 ms (the per-step 0.2 ms aside):
        // 3072 requests over the two groups, one prompt in the step.
        double t = step(m, 2, PYTORCH).seconds(3071, 1536, 1024, 1024, 1, 3072, 1, new Breakdown(), 0);
        assertEquals(45.11e-3 + PYTORCH.hostSecondsPerStep(), t, 0.1e-3);
    }
}
