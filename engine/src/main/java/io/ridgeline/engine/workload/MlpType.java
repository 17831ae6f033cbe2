package io.ridgeline.engine.workload;

/** The feed-forward block's shape. */
public enum MlpType {
    /** Two matrices (up, down) with an elementwise activation: GPT-style GeLU. */
    GELU(2),
    /** Three matrices (gate, up, down): Llama-style SwiGLU. */
    SWIGLU(3);

    private final int matrices;

    MlpType(int matrices) {
        this.matrices = matrices;
    }

    /** Number of weight matrices of size hidden x ffn. */
    public int matrices() {
        return matrices;
    }
}
