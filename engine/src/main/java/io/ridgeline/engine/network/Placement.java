package io.ridgeline.engine.network;

/**
 * Where each parallel dimension's groups land. Megatron's rank order puts TP innermost, then CP, EP (within DP),
 * DP, and PP outermost (Megatron-LM parallel_state, order "tp-cp-ep-dp-pp"): a dimension with stride s (the product of
 * the sizes inside it) keeps max(1, domain / s) of its ranks per scale-up domain.
 */
public final class Placement {
    private Placement() {
    }

    /** The group of a dimension of {@code size} ranks whose consecutive ranks are {@code stride} apart. */
    public static Group group(int size, int stride, int domainSize) {
        if (size == 1) {
            return Group.SINGLE;
        }
        int perDomain;
        if (stride >= domainSize) {
            perDomain = 1;
        } else {
            perDomain = Math.min(size, Math.max(1, domainSize / stride));
            while (size % perDomain != 0) {
                perDomain--;
            }
        }
        return new Group(size, perDomain, stride);
    }

    /** True when a pipeline hop (stride tp*cp*dp) leaves the scale-up domain. */
    public static boolean pipelineCrossesDomains(int innerRanks, int domainSize) {
        return innerRanks >= domainSize;
    }
}
