package io.ridgeline.engine.inference;

/**
 * How long a new prompt waits in the runtime before its first chunk runs: for the step in progress and for the
 * prompts ahead of it, with prefill seen as one first-come-first-served server.
 *
 * <p>Each step the runtimes schedule the running requests first and then the waiting prompts in arrival order within
 * the step's token budget (vLLM V1 {@code Scheduler.schedule}: "First, schedule the RUNNING requests", then the
 * waiting queue; TensorRT-LLM in-flight batching with FIRST_COME_FIRST_SERVED context chunking). Prefill is then a
 * FCFS server with deterministic service S (identical prompts: the step time a prompt's chunks add) and load
 * rho = prompts per second x S, the M/D/1 queue: a prompt arriving at a random instant waits
 * {@code W = rho S / (2 (1 - rho))} (Pollaczek-Khinchine, Kleinrock, Queueing Systems I, 1975, eq. 5.105 with
 * E[S^2] = S^2): the residual S/2 of a prompt in service (busy with probability rho) plus the prompts queued,
 * {@code Lq S = rho W} (Little's law), and besides that the residual of the decode work of the step in progress.
 * The server is work-conserving whatever the token budget: a budget that packs several waiting prompts (or chunks of
 * them) into one step makes that step last as long as the prefill work it carries, so the wait for the prompts ahead
 * is their work, S each (the decode part of the steps they share is the only saving, and a prompt then also waits for
 * the ones packed after it into its own step).
 *
 * <p>Closed loop (c clients, each sending its next request when the last one completes): by the arrival theorem
 * (Lavenberg and Reiser, J. Appl. Prob. 1980) an arriving request sees the system as it is with its own client absent,
 * load rho' = rho (c - 1) / c, so one client never waits. And it arrives at a step boundary (its previous request's
 * last token ends a step, and the runtime starts the next step at once when any other request is in it), so the step
 * in progress has just begun: it waits the whole of it, its decode work and, with probability rho', a prompt's whole
 * service S rather than the S/2 of a random instant; then the queued prompts, rho' W(rho'). As rho' <= (c - 1) / c,
 * that is less than the other c - 1 prompts' service even when the server never idles.
 */
final class PrefillQueue {
    /** Least 1 - rho in the M/D/1 formula: at rho -> 1 the queue grows without bound (the caller's overload). */
    private static final double MIN_IDLE_FRACTION = 1e-6;

    private PrefillQueue() {
    }

    /**
     * Poisson arrivals (they see the time-average load, PASTA): half the step's decode work, then the M/D/1 wait.
     *
     * @param decodeStepSeconds the mean step without its prefill (the server's idle time between prompts)
     */
    static double openWaitSeconds(double utilisation, double serviceSeconds, double decodeStepSeconds) {
        return 0.5 * decodeStepSeconds + mdOneWaitSeconds(utilisation, serviceSeconds);
    }

    /**
     * A closed loop of {@code clients} clients, the others keeping {@code othersInRuntime} requests in the runtime
     * (with none the runtime is idle when the request arrives and it starts at once).
     */
    static double closedLoopWaitSeconds(int clients, double othersInRuntime, double utilisation,
                                        double serviceSeconds, double decodeStepSeconds) {
        if (clients <= 1 || othersInRuntime <= 0) {
            return 0;
        }
        double seen = Math.min(utilisation * (clients - 1.0) / clients, 1);
        double inService = seen * serviceSeconds;
        double queued = seen * mdOneWaitSeconds(seen, serviceSeconds);
        return Math.min(1, othersInRuntime) * decodeStepSeconds + inService + queued;
    }

    /** Pollaczek-Khinchine for deterministic service S at load {@code utilisation}: rho S / (2 (1 - rho)). */
    static double mdOneWaitSeconds(double utilisation, double serviceSeconds) {
        if (utilisation <= 0 || serviceSeconds <= 0) {
            return 0;
        }
        double idle = Math.max(1 - utilisation, MIN_IDLE_FRACTION);
        return utilisation * serviceSeconds / (2 * idle);
    }
}
