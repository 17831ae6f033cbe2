package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.LowerCaseId;

/** Which kernel a serving runtime runs for a tensor-parallel all-reduce of a given size. */
public enum AllReduceSelection implements LowerCaseId {
    /** The runtime's own low-latency kernel at every size (the engine's assumption where no selection is read). */
    RUNTIME_KERNEL,
    /**
     * TensorRT-LLM's AUTO strategy with two-shot disabled: one-shot below 16 MB on 2 ranks, 1 MB on up to 4 and
     * 500 kB above, NCCL beyond (AllreducePlugin::selectImplementation, WAR for nvbug 4718747; workspace from
     * customAllReduceUtils getMaxRequiredWorkspaceSize).
     */
    TRTLLM_ONESHOT_OR_NCCL;

    /** Largest message (bytes) the runtime's own kernel reduces over {@code ranks} ranks; NCCL above it. */
    public double maxKernelBytes(int ranks) {
        if (this == RUNTIME_KERNEL) {
            return Double.POSITIVE_INFINITY;
        }
        return ranks <= 2 ? 16e6 : ranks <= 4 ? 1e6 : 5e5;
    }
}
