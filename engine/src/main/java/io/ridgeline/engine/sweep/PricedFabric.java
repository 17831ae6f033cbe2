package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.cost.NetworkCapex;
import io.ridgeline.engine.network.Topology;
import io.ridgeline.engine.technology.TechnologyCatalog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scale-out fabric a sweep prices: the cluster it is sized for (the points columns {@code topology},
 * {@code scale_out}, {@code scale_up_domain}, {@code gpu_count} identify it) and its capex. The TCO of every row on
 * that fabric is {@code TcoModel.gpuHour(price, tdp, capex, gpuCount)}; the runs manifest records these so an export
 * prices rows exactly as the sweep did.
 */
public record PricedFabric(String topology, String scaleOut, int scaleUpDomain, int gpuCount, NetworkCapex capex) {

    /**
     * Every distinct priced fabric of the sweep's grid, in grid order: the same sizing as {@link Evaluator}
     * (topology built per GPU count, scale-up domain and the point's catalogue scale-out network). Empty when the
     * topology axis is only {@code none}. Driver-side; a handful of builds per sweep.
     */
    public static List<PricedFabric> of(SweepSpec spec) {
        return of(spec, HardwareCatalog.bundled(), TechnologyCatalog.bundled());
    }

    static List<PricedFabric> of(SweepSpec spec, HardwareCatalog hardware, TechnologyCatalog tech) {
        boolean priced = false;
        for (TopologyAxis t : spec.topologies()) {
            priced |= !t.kind().equals("none");
        }
        if (!priced) {
            return List.of();
        }
        Map<String, PricedFabric> out = new LinkedHashMap<>();
        for (String chipId : spec.chips()) {
            Chip chip = null;
            for (DerivedDesign d : spec.derived()) {
                if (d.id().equals(chipId)) {
                    chip = d.build(tech);
                }
            }
            chip = chip != null ? chip : hardware.chip(chipId);
            for (String scaleOut : spec.scaleOuts()) {
                String network = (scaleOut.equals(SweepSpec.DEFAULT) ? hardware.defaultNetwork(chip)
                        : hardware.network(scaleOut)).id();
                for (int domainSetting : spec.scaleUpDomains()) {
                    int domain = domainSetting > 0 ? domainSetting : chip.scaleUpDomain();
                    for (TopologyAxis t : spec.topologies()) {
                        for (int gpus : spec.gpuCounts()) {
                            Topology topology = t.build(gpus, domain, network, tech);
                            if (topology == null) {
                                continue;
                            }
                            String key = t.id() + "\u0000" + network + "\u0000" + domain + "\u0000" + gpus;
                            out.putIfAbsent(key, new PricedFabric(t.id(), network, domain, gpus, topology.capex()));
                        }
                    }
                }
            }
        }
        return new ArrayList<>(out.values());
    }
}
