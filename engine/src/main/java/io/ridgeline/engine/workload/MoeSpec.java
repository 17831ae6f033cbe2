package io.ridgeline.engine.workload;

/**
 * Mixture-of-experts feed-forward: routed experts of width {@code expertFfn}, {@code topK} of them per token, plus
 * {@code sharedExperts} always-on experts of the same width.
 *
 * @param capacityFactor tokens an expert accepts relative to a perfectly balanced load (1.0 = no padding)
 */
public record MoeSpec(int experts, int topK, long expertFfn, int sharedExperts, double capacityFactor) {
    public MoeSpec {
        if (experts < 1 || topK < 1 || topK > experts || expertFfn < 1 || sharedExperts < 0 || !(capacityFactor >= 1.0)) {
            throw new IllegalArgumentException("invalid MoE spec: experts=" + experts + " topK=" + topK + " ffn="
                    + expertFfn + " shared=" + sharedExperts + " capacity=" + capacityFactor);
        }
    }

    /** Experts a token actually runs through: routed top-k plus shared ones. */
    public int activeExpertsPerToken() {
        return topK + sharedExperts;
    }
}
