package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.LowerCaseId;

/** Which kernel a serving runtime runs for a tensor-parallel all-reduce of a given size. */
public enum AllReduceSelection implements LowerCaseId {
    /** The runtime's own low-latency kernel at every size (the engine's assumption where no selection is read). */
    RUNTIME_KERNEL,
    /**
     * TensorRT-LLM's AUTO strategy with two-shot disabled: one-shot below 16 MB on 2 ranks, 1 MB on up to 4 and
     * 500 kB above, NCCL beyond (AllreducePlugin::selectImplementation, WAR for nvbug 4718747; workspace from
     * customAllReduceUtils getMaxRequiredWorkspaceSize). Without NVLink between the ranks AUTO returns NCCL at every
     * size ({@code if (isAuto && !mIsNVLINKSupported) return NCCL}, same function): PCIe cards never run one-shot.
     */
    TRTLLM_ONESHOT_OR_NCCL;

    /** TensorRT-LLM's custom all-reduce workspace on 2 ranks: getMaxRequiredWorkspaceSize, 16 * 1000 * 1000. */
    private static final double TWO_RANK_WORKSPACE_BYTES = 16e6;
    /** selectImplementation: one-shot below 1 * 1000 * 1000 bytes on up to 4 ranks. */
    private static final double FOUR_RANK_ONE_SHOT_BYTES = 1e6;
    /** selectImplementation: one-shot below 500 * 1000 bytes on more ranks. */
    private static final double EIGHT_RANK_ONE_SHOT_BYTES = 5e5;

    /**
     * Largest message (bytes) the runtime's own kernel reduces over {@code ranks} ranks; NCCL above it.
     *
     * @param nvlink whether the ranks share an NVLink domain (false for PCIe-only cards)
     */
    public double maxKernelBytes(int ranks, boolean nvlink) {
        if (this == RUNTIME_KERNEL) {
            return Double.POSITIVE_INFINITY;
        }
        if (!nvlink) {
            return 0;
        }
        return ranks <= 2 ? TWO_RANK_WORKSPACE_BYTES : ranks <= 4 ? FOUR_RANK_ONE_SHOT_BYTES : EIGHT_RANK_ONE_SHOT_BYTES;
    }
}
