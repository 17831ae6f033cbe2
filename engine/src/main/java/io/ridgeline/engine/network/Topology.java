package io.ridgeline.engine.network;

import io.ridgeline.engine.cost.NetworkCapex;

/**
 * A network of {@link #endpoints()} ranks (GPUs or their NICs), for topology-aware collectives (MODEL.md sec. 4).
 *
 * <p>A group is placed as {@code ranks} endpoints {@code stride} apart in endpoint order (Megatron's rank order:
 * stride 1 = contiguous); the machine is assumed full of identical groups running the same pattern at once (SPMD), so
 * a group's traffic competes with its neighbours' for bisection and oversubscribed uplinks.
 */
public sealed interface Topology permits SwitchedDomain, RingTopology, TorusTopology, HierarchicalFabric {

    /** Registry name: "switched", "ring", "torus", "fat-tree", "rail-optimized", "dragonfly". */
    String kind();

    int endpoints();

    /** Injection bandwidth of one endpoint, per direction. */
    double injectionBytesPerSecond();

    /** Effective bandwidth and step latency for one rank of a group of {@code ranks} endpoints {@code stride} apart. */
    PathEstimate estimate(CollectivePattern pattern, int ranks, int stride);

    /** Switches, optics, cables and NICs of the whole fabric. */
    NetworkCapex capex();

    /** Common argument check. */
    default void checkGroup(int ranks, int stride) {
        if (ranks < 1 || stride < 1 || (long) (ranks - 1) * stride >= endpoints()) {
            throw new IllegalArgumentException("group of " + ranks + " ranks at stride " + stride
                    + " does not fit on " + endpoints() + " endpoints of " + kind());
        }
    }
}
