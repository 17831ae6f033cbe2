package io.ridgeline.engine.software;

import io.ridgeline.engine.spec.LowerCaseId;

/** When ZeRO-3/FSDP gathers the next unit's parameters during backward (PyTorch FSDP BackwardPrefetch). */
public enum BackwardPrefetch implements LowerCaseId {
    /**
     * Before the current unit's gradient computation: the next gather overlaps this unit's compute (FSDP
     * BACKWARD_PRE, Megatron FSDP double buffering, DeepSpeed ZeRO-3 prefetch).
     */
    PRE,
    /**
     * After the current unit's gradient computation: the next gather overlaps only this unit's reduce-scatter, so the
     * next unit's compute waits for it; the reduce-scatter overlaps the next unit's compute (FSDP BACKWARD_POST).
     */
    POST;
}
