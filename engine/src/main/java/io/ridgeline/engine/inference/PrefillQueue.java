package io.ridgeline.engine.inference;

/**
 * The wait of a new prompt for the prompts ahead of it, with prefill seen as one first-come-first-served server.
 *
 * <p>Each step the runtimes schedule the running requests first and then the waiting prompts in arrival order within
 * the step's token budget (vLLM V1 {@code Scheduler.schedule}: "First, schedule the RUNNING requests", then the
 * waiting queue; TensorRT-LLM in-flight batching with FIRST_COME_FIRST_SERVED context chunking). A prompt therefore
 * waits for the prefill work that arrived before it, which is the M/G/1 queue of Pollaczek-Khinchine with
 * deterministic service S (identical prompts) and load rho = arrival rate x S: {@code W = rho S / (2 (1 - rho))}
 * (Kleinrock, Queueing Systems I, 1975, eq. 5.105 with E[S^2] = S^2). The wait for the step boundary and the prompt's
 * own chunks are {@link ContinuousBatching}'s.
 *
 * <p>Closed loop (c clients, each sending its next request when the last completes): by the arrival theorem
 * (Lavenberg and Reiser, J. Appl. Prob. 1980) an arriving request sees the system as it is with its own client
 * absent, so the load ahead of it is the other c - 1 clients', rho (c - 1) / c: one client never queues. No more than
 * those c - 1 prompts can be ahead of it, so the wait is at most (c - 1) S.
 */
final class PrefillQueue {
    /** Least 1 - rho in the open-system formula: at rho -> 1 the queue grows without bound (the caller's overload). */
    private static final double MIN_IDLE_FRACTION = 1e-6;

    private PrefillQueue() {
    }

    /** Mean wait for Poisson arrivals (they see the time-average load, PASTA) at load {@code utilisation}. */
    static double openWaitSeconds(double utilisation, double serviceSeconds) {
        return wait(utilisation, utilisation, serviceSeconds);
    }

    /** Mean wait in a closed loop of {@code clients} clients at load {@code utilisation} (see the class comment). */
    static double closedLoopWaitSeconds(int clients, double utilisation, double serviceSeconds) {
        if (clients <= 1) {
            return 0;
        }
        double seen = utilisation * (clients - 1.0) / clients;
        return Math.min(wait(seen, utilisation, serviceSeconds), (clients - 1.0) * serviceSeconds);
    }

    /** P-K with the arriving prompt's view of the load ({@code seen}) over the server's idle share. */
    private static double wait(double seen, double utilisation, double serviceSeconds) {
        if (seen <= 0 || serviceSeconds <= 0) {
            return 0;
        }
        double idle = Math.max(1 - utilisation, MIN_IDLE_FRACTION);
        return seen * serviceSeconds / (2 * idle);
    }
}
