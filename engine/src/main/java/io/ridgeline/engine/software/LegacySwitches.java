package io.ridgeline.engine.software;

/**
 * The behaviour a plan gets from the sweep layer's two switches (flash attention, overlapped gradient reduction)
 * until sweeps name a software profile: overlapped plans take the current Megatron-core profile
 * ({@value #MODERN}), the others Megatron-LM 2021 ({@value #LEGACY}), each with the attention kernel the switch asks
 * for. Four instances, built once from the bundled catalogue.
 */
public final class LegacySwitches {
    /** The profile behind overlapped plans. */
    public static final String MODERN = "megatron-bridge@25.11";
    /** The profile behind plans without overlap. */
    public static final String LEGACY = "megatron-lm@2021";

    private static volatile TrainingBehaviour[] table;

    private LegacySwitches() {
    }

    /** The behaviour for the two switches; no allocation after the first call. */
    public static TrainingBehaviour behaviour(boolean overlapGrad, boolean flashAttention) {
        TrainingBehaviour[] t = table;
        if (t == null) {
            t = build();
            table = t;
        }
        return t[(overlapGrad ? 2 : 0) + (flashAttention ? 1 : 0)];
    }

    private static TrainingBehaviour[] build() {
        StackCatalog c = StackCatalog.bundled();
        TrainingBehaviour modern = c.profile(MODERN).training();
        TrainingBehaviour legacy = c.profile(LEGACY).training();
        TrainingBehaviour[] t = new TrainingBehaviour[4];
        for (int i = 0; i < 4; i++) {
            boolean overlap = i >= 2;
            boolean flash = (i & 1) == 1;
            TrainingBehaviour base = overlap ? modern : legacy;
            AttentionKernel kernel = !flash ? AttentionKernel.UNFUSED
                    : base.fusedAttention() ? base.attention() : AttentionKernel.FLASH2;
            t[i] = base.attention() == kernel && base.gradReduceOverlap() == overlap ? base
                    : base.withSwitches(kernel, overlap);
        }
        return t;
    }
}
