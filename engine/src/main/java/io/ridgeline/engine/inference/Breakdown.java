package io.ridgeline.engine.inference;

/**
 * Mutable time accumulator by cause, reused across evaluations to keep the hot path allocation-free. Each add takes a
 * weight (how many identical steps the value stands for; 0 to compute a time without recording it).
 */
final class Breakdown {
    double computeSeconds;
    double memorySeconds;
    double scaleUpSeconds;
    double scaleOutSeconds;
    double overheadSeconds;
    /** Part of compute + memory during which the SMs are busy (energy model). */
    double busySeconds;

    void reset() {
        computeSeconds = 0;
        memorySeconds = 0;
        scaleUpSeconds = 0;
        scaleOutSeconds = 0;
        overheadSeconds = 0;
        busySeconds = 0;
    }

    /** An operator whose compute and memory times combined to {@code seconds}: charged to the larger side. */
    void kernel(double seconds, double computeSide, double memorySide, double weight) {
        if (computeSide >= memorySide) {
            computeSeconds += weight * seconds;
        } else {
            memorySeconds += weight * seconds;
        }
        busySeconds += weight * seconds;
    }

    void overhead(double seconds, double weight) {
        overheadSeconds += weight * seconds;
    }

    void communication(double seconds, boolean scaleOut, double weight) {
        if (scaleOut) {
            scaleOutSeconds += weight * seconds;
        } else {
            scaleUpSeconds += weight * seconds;
        }
    }

    double totalSeconds() {
        return computeSeconds + memorySeconds + scaleUpSeconds + scaleOutSeconds + overheadSeconds;
    }
}
