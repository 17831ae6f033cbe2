package io.ridgeline.engine.network;

import io.ridgeline.engine.cost.NetworkCapex;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.technology.LinkType;

/**
 * A bidirectional ring of {@code endpoints}, each joined to both neighbours by {@code linksPerNeighbour} links. Its
 * bisection is two links' worth whatever its size, so all-to-all degrades as the ring grows.
 */
public record RingTopology(int endpoints, int linksPerNeighbour, LinkType link) implements Topology {
    public RingTopology {
        if (endpoints < 2 || linksPerNeighbour < 1) {
            throw new InvalidInputException(InputError.of("topology", "ring.endpoints",
                    "at least 2 endpoints and 1 link per neighbour", endpoints + " / " + linksPerNeighbour));
        }
    }

    @Override
    public String kind() {
        return "ring";
    }

    private double neighbourBytesPerSecond() {
        return linksPerNeighbour * link.bytesPerSecond();
    }

    @Override
    public double injectionBytesPerSecond() {
        return 2 * neighbourBytesPerSecond();
    }

    @Override
    public PathEstimate estimate(CollectivePattern pattern, int ranks, int stride) {
        checkGroup(ranks, stride);
        double kl = neighbourBytesPerSecond();
        boolean wraps = (long) ranks * stride == endpoints;
        int span = Math.min(endpoints, ranks * stride);
        double hopSeconds = link.latencySeconds();
        if (pattern == CollectivePattern.ALL_TO_ALL) {
            // Bisection bound: half the ranks send half their bytes across a cut of 2 (wrapped) or 1 link(s);
            // the `stride` interleaved groups of the span share that cut.
            double bisection = (wraps ? 2 : 1) * kl;
            double p = ranks;
            double bw = Math.min(injectionBytesPerSecond(), 4 * bisection * (p - 1) / (stride * p * p));
            int hops = (int) Math.ceil(span / (wraps ? 4.0 : 3.0));
            return new PathEstimate(bw, hops * hopSeconds, hops);
        }
        if (pattern == CollectivePattern.SEND_RECV) {
            return new PathEstimate(kl / stride, stride * hopSeconds, stride);
        }
        // Ring collectives: two counter-rotating rings when the group closes the ring, one ring embedded on a line
        // otherwise; `stride` interleaved groups share every link.
        double bw = (wraps ? 2 : 1) * kl / stride;
        return new PathEstimate(bw, stride * hopSeconds, stride);
    }

    @Override
    public NetworkCapex capex() {
        int cables = endpoints * linksPerNeighbour;
        return new NetworkCapex(0, 0, cables, 0, 0, 0, cables * link.cableUsd(), 0, 0);
    }
}
