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
    /** Work of one rank of each stage (energy model): FLOPs, DRAM bytes, bytes sent on scale-up and scale-out. */
    double flops;
    double dramBytes;
    double scaleUpBytes;
    double scaleOutBytes;

    void reset() {
        computeSeconds = 0;
        memorySeconds = 0;
        scaleUpSeconds = 0;
        scaleOutSeconds = 0;
        overheadSeconds = 0;
        busySeconds = 0;
        flops = 0;
        dramBytes = 0;
        scaleUpBytes = 0;
        scaleOutBytes = 0;
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

    /** What an operator moves and computes (counts, not times), for the energy model. */
    void traffic(double flopCount, double bytes, double weight) {
        flops += weight * flopCount;
        dramBytes += weight * bytes;
    }

    void overhead(double seconds, double weight) {
        overheadSeconds += weight * seconds;
    }

    /**
     * A collective or pipeline hand-off: its time and the bytes the rank sends, both charged to one network (the
     * energy model charges the bytes per bit). Returns {@code seconds}, the unweighted time of one such transfer.
     */
    double transfer(double seconds, double bytesSent, boolean scaleOut, double weight) {
        if (scaleOut) {
            scaleOutSeconds += weight * seconds;
            scaleOutBytes += weight * bytesSent;
        } else {
            scaleUpSeconds += weight * seconds;
            scaleUpBytes += weight * bytesSent;
        }
        return seconds;
    }

    /** Multiplies every accumulated time and count (one average step scaled to a window of steps). */
    void scale(double factor) {
        computeSeconds *= factor;
        memorySeconds *= factor;
        scaleUpSeconds *= factor;
        scaleOutSeconds *= factor;
        overheadSeconds *= factor;
        busySeconds *= factor;
        flops *= factor;
        dramBytes *= factor;
        scaleUpBytes *= factor;
        scaleOutBytes *= factor;
    }

    double totalSeconds() {
        return computeSeconds + memorySeconds + scaleUpSeconds + scaleOutSeconds + overheadSeconds;
    }
}
