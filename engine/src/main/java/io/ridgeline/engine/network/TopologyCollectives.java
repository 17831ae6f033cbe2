package io.ridgeline.engine.network;

import io.ridgeline.engine.hardware.CollectiveCurve;

/**
 * Alpha-beta collective times on a {@link Topology} (MODEL.md sec. 4): ring all-reduce 2(p-1) steps (or 2 log2 p
 * with a tree, whichever is fewer) + 2(p-1)/p n / B; reduce-scatter and all-gather half of that; all-to-all (p-1)
 * steps + (p-1)/p n / B; send/recv one step + n / B. B and the step latency come from the topology for the group's
 * placement, so bisection and oversubscription apply. {@code efficiency} is the sustained fraction of the line rate
 * (e.g. {@link io.ridgeline.engine.hardware.ScaleOutNetwork#efficiency()}).
 */
public final class TopologyCollectives {
    private final Topology topology;
    private final double efficiency;

    public TopologyCollectives(Topology topology, double efficiency) {
        if (!(efficiency > 0 && efficiency <= 1)) {
            throw new IllegalArgumentException("efficiency must be in (0, 1]: " + efficiency);
        }
        this.topology = topology;
        this.efficiency = efficiency;
    }

    public Topology topology() {
        return topology;
    }

    public double allReduceSeconds(double bytes, int ranks, int stride) {
        if (ranks == 1 || bytes <= 0) {
            return 0;
        }
        PathEstimate e = topology.estimate(CollectivePattern.ALL_REDUCE, ranks, stride);
        return CollectiveCurve.latencySteps(ranks) * e.stepLatencySeconds()
                + 2.0 * (ranks - 1) / ranks * bytes / (efficiency * e.bytesPerSecond());
    }

    public double reduceScatterSeconds(double bytes, int ranks, int stride) {
        if (ranks == 1 || bytes <= 0) {
            return 0;
        }
        PathEstimate e = topology.estimate(CollectivePattern.REDUCE_SCATTER, ranks, stride);
        return CollectiveCurve.latencySteps(ranks) / 2 * e.stepLatencySeconds()
                + (double) (ranks - 1) / ranks * bytes / (efficiency * e.bytesPerSecond());
    }

    public double allGatherSeconds(double bytes, int ranks, int stride) {
        return reduceScatterSeconds(bytes, ranks, stride);
    }

    /** Each rank sends {@code bytes} in total, spread evenly over the group. */
    public double allToAllSeconds(double bytes, int ranks, int stride) {
        if (ranks == 1 || bytes <= 0) {
            return 0;
        }
        PathEstimate e = topology.estimate(CollectivePattern.ALL_TO_ALL, ranks, stride);
        return (ranks - 1) * e.stepLatencySeconds()
                + (double) (ranks - 1) / ranks * bytes / (efficiency * e.bytesPerSecond());
    }

    public double sendRecvSeconds(double bytes, int stride) {
        if (bytes <= 0) {
            return 0;
        }
        PathEstimate e = topology.estimate(CollectivePattern.SEND_RECV, 2, stride);
        return e.stepLatencySeconds() + bytes / (efficiency * e.bytesPerSecond());
    }
}
