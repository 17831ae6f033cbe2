package io.ridgeline.engine.workload;

/**
 * Multi-head latent attention (DeepSeek-V2/V3): queries and keys/values pass through low-rank latents; each head's
 * query/key has a content part and a rotary part, and values have their own width.
 *
 * @param qLoraRank     query latent width (h -> qLoraRank -> heads x (qkNope + qkRope))
 * @param kvLoraRank    key/value latent width (h -> kvLoraRank + qkRope -> heads x (qkNope + v))
 * @param qkNopeHeadDim per-head content width of queries and keys
 * @param qkRopeHeadDim per-head rotary width of queries and keys (the rotary key is shared by all heads)
 * @param vHeadDim      per-head value width
 */
public record MlaSpec(int qLoraRank, int kvLoraRank, int qkNopeHeadDim, int qkRopeHeadDim, int vHeadDim) {
    public MlaSpec {
        if (qLoraRank < 1 || kvLoraRank < 1 || qkNopeHeadDim < 1 || qkRopeHeadDim < 0 || vHeadDim < 1) {
            throw new IllegalArgumentException("invalid MLA dimensions");
        }
    }

    /** Per-head query/key width. */
    public int qkHeadDim() {
        return qkNopeHeadDim + qkRopeHeadDim;
    }

    /** Weights of one layer's attention: down and up projections of queries and keys/values, and the output. */
    public double params(int hidden, int heads) {
        return (double) hidden * qLoraRank + (double) qLoraRank * heads * qkHeadDim()
                + (double) hidden * (kvLoraRank + qkRopeHeadDim) + (double) kvLoraRank * heads * (qkNopeHeadDim + vHeadDim)
                + (double) heads * vHeadDim * hidden;
    }
}
