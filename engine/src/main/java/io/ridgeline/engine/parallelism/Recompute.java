package io.ridgeline.engine.parallelism;

import io.ridgeline.engine.spec.LowerCaseId;
import io.ridgeline.engine.spec.Names;

/** Activation recomputation (Korthikanti et al. 2022). */
public enum Recompute implements LowerCaseId {
    /** Keep every activation. */
    NONE,
    /** Recompute only attention's s^2 part (softmax, dropout, score x V). */
    SELECTIVE,
    /** Keep only each layer's input; re-run the whole layer forward in backward. */
    FULL,
    /**
     * The least recomputation that fits (what frameworks are tuned to when a run states none): nothing if it fits,
     * else selective where it saves memory, else full recomputation of as few layers per stage as needed (Megatron
     * recompute_method=block). Resolved per evaluation from the memory model.
     */
    AUTO;

    public static Recompute parse(String s) {
        return Names.parse(Recompute.class, s);
    }
}
