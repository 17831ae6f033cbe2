package io.ridgeline.engine.network;

import io.ridgeline.engine.cost.NetworkCapex;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.technology.LinkType;

import java.util.Arrays;

/**
 * A 2D or 3D torus (TPU style): per-dimension rings, {@code linksPerNeighbour} links to each of 2 x d neighbours. A
 * group is placed as a contiguous block filling dimension 0 first. Ring collectives run on every spanned dimension
 * at once; all-to-all is bounded by the block's bisection.
 */
public record TorusTopology(int[] dims, int linksPerNeighbour, LinkType link) implements Topology {
    public TorusTopology {
        if (dims.length < 2 || dims.length > 3 || Arrays.stream(dims).anyMatch(d -> d < 2) || linksPerNeighbour < 1) {
            throw new InvalidInputException(InputError.of("topology", "torus.dims",
                    "2 or 3 dimensions of size >= 2 and >= 1 link per neighbour", Arrays.toString(dims)));
        }
        dims = dims.clone();
    }

    @Override
    public int[] dims() {
        return dims.clone();
    }

    @Override
    public String kind() {
        return "torus";
    }

    @Override
    public int endpoints() {
        int n = 1;
        for (int d : dims) {
            n *= d;
        }
        return n;
    }

    private double neighbourBytesPerSecond() {
        return linksPerNeighbour * link.bytesPerSecond();
    }

    @Override
    public double injectionBytesPerSecond() {
        return 2 * dims.length * neighbourBytesPerSecond();
    }

    /** Extents of the block that {@code n} consecutive endpoints occupy (dimension 0 fastest). */
    int[] block(int n) {
        int[] e = new int[dims.length];
        int remaining = n;
        for (int i = 0; i < dims.length; i++) {
            e[i] = Math.max(1, Math.min(dims[i], remaining));
            remaining = (int) Math.ceil((double) remaining / e[i]);
        }
        return e;
    }

    @Override
    public PathEstimate estimate(CollectivePattern pattern, int ranks, int stride) {
        checkGroup(ranks, stride);
        double kl = neighbourBytesPerSecond();
        int[] e = block(ranks * stride);
        double ringBytesPerSecond = 0;
        double injection = 0;
        int largest = 0;
        double avgHops = 0;
        for (int i = 0; i < e.length; i++) {
            if (e[i] > 1) {
                boolean wraps = e[i] == dims[i];
                ringBytesPerSecond += (wraps ? 2 : 1) * kl;
                injection += 2 * kl;
                avgHops += e[i] / (wraps ? 4.0 : 3.0);
                if (e[i] > e[largest] || e[largest] == 1) {
                    largest = i;
                }
            }
        }
        double hopSeconds = link.latencySeconds();
        if (pattern == CollectivePattern.ALL_TO_ALL) {
            int blockSize = 1;
            for (int x : e) {
                blockSize *= x;
            }
            // Cut across the longest spanned dimension: blockSize / e_max rings, 2 links each when they wrap.
            double bisection = (double) blockSize / e[largest] * (e[largest] == dims[largest] ? 2 : 1) * kl;
            double p = ranks;
            double bw = Math.min(injection, 4 * bisection * (p - 1) / (stride * p * p));
            int hops = Math.max(1, (int) Math.ceil(avgHops));
            return new PathEstimate(bw, hops * hopSeconds, hops);
        }
        if (pattern == CollectivePattern.SEND_RECV) {
            return new PathEstimate(kl / stride, stride * hopSeconds, stride);
        }
        return new PathEstimate(ringBytesPerSecond / stride, stride * hopSeconds, stride);
    }

    @Override
    public NetworkCapex capex() {
        int n = endpoints();
        int links = 0;
        for (int d : dims) {
            links += (d > 2 ? n : n / 2) * linksPerNeighbour;
        }
        return new NetworkCapex(0, 0, links, 0, 0, 0, links * link.cableUsd(), 0, 0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TorusTopology t && Arrays.equals(t.dims, dims) && t.linksPerNeighbour == linksPerNeighbour
                && t.link.equals(link);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(dims) * 31 + linksPerNeighbour;
    }

    @Override
    public String toString() {
        return "TorusTopology" + Arrays.toString(dims);
    }
}
