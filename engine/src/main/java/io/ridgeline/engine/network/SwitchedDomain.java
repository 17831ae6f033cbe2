package io.ridgeline.engine.network;

import io.ridgeline.engine.cost.NetworkCapex;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.technology.LinkType;
import io.ridgeline.engine.technology.SwitchType;

/**
 * A full-bisection switched domain of any size (NVSwitch node, NVL72 rack, NVL576): every endpoint's {@code
 * linksPerEndpoint} links go to switch planes; one switch hop while the domain fits the radix, else a two-tier
 * non-blocking Clos (three hops, tier-2 links optical).
 */
public record SwitchedDomain(int endpoints, int linksPerEndpoint, LinkType link, SwitchType switchType)
        implements Topology {
    public SwitchedDomain {
        if (endpoints < 1 || linksPerEndpoint < 1) {
            throw new InvalidInputException(InputError.of("topology", "switched.endpoints",
                    "at least one endpoint with at least one link", endpoints + " x " + linksPerEndpoint));
        }
        if (!switchType.link().id().equals(link.id())) {
            throw new InvalidInputException(InputError.of("topology", "switched.switch",
                    "a switch for " + link.id(), switchType.id() + " (" + switchType.link().id() + ")"));
        }
    }

    @Override
    public String kind() {
        return "switched";
    }

    @Override
    public double injectionBytesPerSecond() {
        return linksPerEndpoint * link.bytesPerSecond();
    }

    private boolean singleTier() {
        return endpoints <= switchType.radix();
    }

    @Override
    public PathEstimate estimate(CollectivePattern pattern, int ranks, int stride) {
        checkGroup(ranks, stride);
        int hops = singleTier() ? 1 : 3;
        // Full bisection: every pattern runs at the injection rate.
        return new PathEstimate(injectionBytesPerSecond(), link.latencySeconds() + hops * switchType.latencySeconds(),
                hops);
    }

    @Override
    public NetworkCapex capex() {
        int r = switchType.radix();
        long linkEnds = (long) endpoints * linksPerEndpoint;
        int switches;
        int uplinks = 0;
        if (singleTier()) {
            switches = (int) Math.ceil((double) linkEnds / r);
        } else {
            int leaves = (int) Math.ceil((double) linkEnds / (r / 2));
            uplinks = leaves * (r / 2);
            switches = leaves + (int) Math.ceil((double) uplinks / r);
        }
        int cables = (int) linkEnds + uplinks;
        return new NetworkCapex(switches, 2 * uplinks, cables, 0, switches * switchType.usd(),
                2.0 * uplinks * link.opticUsd(), cables * link.cableUsd(), 0, switches * switchType.watts());
    }
}
