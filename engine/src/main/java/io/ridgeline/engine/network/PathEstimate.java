package io.ridgeline.engine.network;

/**
 * What one rank of a collective sees on a topology: the bandwidth it can sustain per direction once every other rank
 * of the machine runs the same pattern (bisection and oversubscription applied), and the latency of one algorithm
 * step (links plus switch/router hops).
 *
 * @param bytesPerSecond     effective per-rank bandwidth, per direction
 * @param stepLatencySeconds one step of the algorithm (alpha)
 * @param hops               switch or router hops of one step
 */
public record PathEstimate(double bytesPerSecond, double stepLatencySeconds, int hops) {
    public PathEstimate {
        if (!(bytesPerSecond > 0) || stepLatencySeconds < 0 || hops < 0) {
            throw new IllegalArgumentException("invalid path estimate: " + bytesPerSecond + " B/s, "
                    + stepLatencySeconds + " s, " + hops + " hops");
        }
    }
}
