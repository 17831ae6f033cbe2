package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.spec.LowerCaseId;

/**
 * What limits a point the most, in either phase: the cause with the largest share of its time, or capacity when it
 * does not fit. The {@code bottleneck} column of the results.
 */
public enum Bottleneck implements LowerCaseId {
    COMPUTE, MEMORY_BANDWIDTH, MEMORY_CAPACITY, SCALE_UP_NETWORK, SCALE_OUT_NETWORK, PIPELINE_BUBBLE, OVERHEAD;

    /** The network a communication time was spent on. */
    public static Bottleneck network(boolean scaleOut) {
        return scaleOut ? SCALE_OUT_NETWORK : SCALE_UP_NETWORK;
    }

    /**
     * Picks the largest of a breakdown's times, cause by cause: it starts at compute, and a later cause wins only with
     * a strictly larger time, so ties go to the earlier cause. One per engine step, reused (no allocation).
     */
    public static final class Tally {
        private Bottleneck largest;
        private double seconds;

        /** Starts a breakdown with its compute time. */
        public Tally compute(double computeSeconds) {
            largest = COMPUTE;
            seconds = computeSeconds;
            return this;
        }

        public Tally add(Bottleneck cause, double causeSeconds) {
            if (causeSeconds > seconds) {
                largest = cause;
                seconds = causeSeconds;
            }
            return this;
        }

        public Bottleneck largest() {
            return largest;
        }
    }
}
