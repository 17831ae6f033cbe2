package io.ridgeline.engine.inference;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.workload.ModelCatalog;
import io.ridgeline.engine.workload.ModelSpec;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Prefill queueing under load: the FCFS prefill server, the closed loop's arrivals at step boundaries. */
class PrefillQueueTest {
    static final HardwareCatalog HW = HardwareCatalog.bundled();
    static final ModelSpec L70 = ModelCatalog.bundled().model("llama3.1-70b");
    static final SystemSpec H100X2 = SystemSpec.of(HW.chip("h100-sxm"), 2, HW.defaultNetwork(HW.chip("h100-sxm")));

    static ContinuousBatching batching(String stack) {
        InferencePlan plan = InferencePlan.tensorParallel(2).withPrecisions(Precision.FP8, Precision.FP8, Precision.FP8)
                .withRuntime(StackCatalog.bundled().profile(stack).serving());
        Replica r = new Replica(L70, H100X2, plan, HW, new GemmModel(H100X2.chip()));
        return new ContinuousBatching(r, new InferenceMemory(L70, plan, H100X2.chip().memoryBytes(),
                r.w4a16Experts));
    }

    @Test
    void pollaczekKhinchineForDeterministicPrompts() {
        // M/D/1: W = rho S / (2 (1 - rho)); at rho 0.5 and S 0.4 s, 0.2 s; a random arrival also waits half the
        // decode work of the step in progress.
        assertEquals(0.2, PrefillQueue.mdOneWaitSeconds(0.5, 0.4), 1e-12);
        assertEquals(0.01 + 0.2, PrefillQueue.openWaitSeconds(0.5, 0.4, 0.02), 1e-12);
        assertEquals(0.01, PrefillQueue.openWaitSeconds(0, 0.4, 0.02), 1e-12);
    }

    @Test
    void aClosedLoopArrivalSeesTheOtherClientsAndAStepJustBegun() {
        // One client: nobody ahead, and the runtime is idle when its request arrives.
        assertEquals(0, PrefillQueue.closedLoopWaitSeconds(1, 0, 0.5, 0.4, 0.02), 0);
        // Four clients at load 0.5: the arrival sees 0.375 (arrival theorem); it waits the whole step just begun
        // (its decode work, and a whole prompt with probability 0.375) and the queued prompts, 0.375 x the M/D/1 wait
        // at that load.
        double seen = 0.375;
        double expected = 0.02 + seen * 0.4 + seen * PrefillQueue.mdOneWaitSeconds(seen, 0.4);
        assertEquals(expected, PrefillQueue.closedLoopWaitSeconds(4, 3, 0.5, 0.4, 0.02), 1e-12);
        // More than a random arrival's M/D/1 wait at the same load: the prompt in service has just started.
        assertTrue(expected > PrefillQueue.openWaitSeconds(seen, 0.4, 0.02));
        // Even with the server never idle, less than the other clients' prompts are ahead of it.
        for (int c = 2; c <= 1024; c *= 2) {
            double ahead = PrefillQueue.closedLoopWaitSeconds(c, c - 1, 1, 0.4, 0);
            assertTrue(ahead > 0 && ahead < (c - 1) * 0.4, c + " clients: " + ahead);
        }
    }

    @Test
    void underLoadANewPromptWaitsForThePromptsAheadOfIt() {
        // 5,000-token prompts, 500 output tokens, Llama 70B fp8 TP2 on 2 x H100 (the NIM 1.8 benchmark's shape): at
        // 50 clients prompts arrive at ~1.4 per second and each holds the steps ~0.4 s, so the prefill server is busy
        // about half the time and a new prompt waits for the ones before it.
        ContinuousBatching cb = batching("nim@1.0");
        cb.onlineClients(50, 5000, 500, null);
        double rho = cb.prefillUtilisation;
        assertTrue(rho > 0.3 && rho < 0.9, "prefill load " + rho);
        double others = cb.concurrency * 49 / 50;
        double wait = PrefillQueue.closedLoopWaitSeconds(50, others, rho, cb.prefillServiceSeconds,
                cb.decodeStepSeconds);
        assertEquals(wait, cb.prefillQueueSeconds, 1e-12);
        assertTrue(wait > cb.prefillServiceSeconds * rho, "wait " + wait);
        // The step's decode part is what is left of the mean step once the prefill share is taken out.
        assertTrue(cb.decodeStepSeconds > 0 && cb.decodeStepSeconds < cb.stepSeconds);
        // TTFT = front end + the wait + the prompt's own step(s).
        double request = 0.002;
        assertEquals(request + wait + cb.promptSeconds, cb.ttftSeconds, 1e-9);
        // Little's law over the clients' cycle: c = throughput x (TTFT + (O - 1) ITL).
        double cycle = cb.ttftSeconds + 499 * cb.interTokenSeconds;
        assertEquals(50, cb.outputTokensPerSecond / 500 * cycle, 1e-6);
        // The requests waiting for their first chunk are in the runtime but not in the decoding batch.
        assertTrue(cb.decodeSequences < cb.concurrency - cb.outputTokensPerSecond / 500 * wait + 1e-9);
    }

    @Test
    void oneClientFindsTheRuntimeIdleAndManyFindAStepInProgress() {
        ContinuousBatching cb = batching("nim@1.0");
        cb.onlineClients(1, 5000, 500, null);
        // Alone, the request starts a step at once: TTFT = front end + its prompt's step.
        assertEquals(0.002 + cb.promptSeconds, cb.ttftSeconds, 1e-9);
        double alone = cb.ttftSeconds;
        cb.onlineClients(5, 5000, 500, null);
        // With others running, it arrives as their next step starts and waits for it, then for the queue.
        assertTrue(cb.ttftSeconds > alone + cb.decodeStepSeconds, cb.ttftSeconds + " s vs " + alone + " s alone");
    }

    @Test
    void aRequestRateQueuesAsAnOpenSystem() {
        ContinuousBatching cb = batching("vllm");
        cb.onlineRate(1.0, 5000, 500, null);
        double rho = cb.prefillUtilisation;
        assertTrue(rho > 0.1, "prefill load " + rho);
        assertEquals(PrefillQueue.openWaitSeconds(rho, cb.prefillServiceSeconds, cb.decodeStepSeconds),
                cb.prefillQueueSeconds, 1e-12);
        // Little's law with the prompts waiting for their first chunk counted in the runtime.
        double inSystem = cb.ttftSeconds - 0.002 + 499 * cb.interTokenSeconds;
        assertEquals(cb.concurrency, 1.0 * inSystem, 0.01 * cb.concurrency);
    }
}
