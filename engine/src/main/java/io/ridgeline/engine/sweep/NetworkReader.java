package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.ListNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.spec.SpecNode.Scalar;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code network} and {@code cluster} sections: scale-out networks, per-GPU rates, scale-up domains, the topology
 * axis ({@link TopologyReader}) and GPU counts. Every fabric is built for every cluster it will meet, so a fabric that
 * cannot be built at some size is a spec error naming the entry, not a failed job.
 */
final class NetworkReader {
    /** What the sections give, in grid-axis order. */
    record Network(List<String> scaleOuts, List<Double> gbps, List<Integer> domains, List<TopologyAxis> topologies,
                   List<Integer> gpus) {
    }

    /** The rate key of earlier sweep files: Gbit/s, renamed so the unit reads. */
    private static final String OLD_RATE_KEY = "scale_out_gbps";

    private final SweepReader r;

    NetworkReader(SweepReader r) {
        this.r = r;
    }

    Network read(MapNode root) {
        MapNode net = root.get("network") == null ? null : r.map(root.get("network"), "network");
        if (net != null) {
            if (net.get(OLD_RATE_KEY) != null) {
                r.errors().add(new InputError(r.source(), net.keyLine(OLD_RATE_KEY), net.keyColumn(OLD_RATE_KEY),
                        "network." + OLD_RATE_KEY, "scale_out_gbit_s (the same per-GPU Gbit/s, named for its unit)",
                        "'" + OLD_RATE_KEY + "'"));
            }
            List<String> known = new ArrayList<>(r.reference.keys("network"));
            known.add(OLD_RATE_KEY);
            r.keys(net, "network", known);
        }
        List<String> ids = new ArrayList<>(r.hardware.networks().keySet());
        ids.add(SweepSpec.DEFAULT);
        List<String> scaleOuts = r.list(r.value(net, "network", "scale_out"), "network.scale_out",
                (n, p) -> r.catalogueName(n, p, ids));
        List<Double> gbps = net == null || net.get("scale_out_gbit_s") == null ? List.of(0.0)
                : r.list(net.get("scale_out_gbit_s"), "network.scale_out_gbit_s", (n, p) -> r.number(n, p, 0, 1e6, false));
        List<Integer> domains = r.list(r.value(net, "network", "scale_up_domain"), "network.scale_up_domain",
                (n, p) -> n instanceof Scalar s && s.kind() == Scalar.Kind.STRING && s.text().equals(SweepSpec.DEFAULT)
                        ? Integer.valueOf(0) : r.integer(n, p, 1, SweepReader.MAX_PARALLEL,
                        "an integer in [1, 65536] or 'default'"));
        List<TopologyAxis> topologies = r.list(r.value(net, "network", "topology"), "network.topology",
                new TopologyReader(r)::read);
        if (net != null && net.get("topology") != null && net.get("scale_out_gbit_s") != null) {
            // A fabric's links set the scale-out rate of the traffic that crosses it: a per-GPU override would be
            // ignored there, so say so instead of running a sweep whose axis does nothing.
            for (TopologyAxis t : topologies) {
                if (!t.kind().equals(TopologyAxis.NONE.kind())) {
                    r.error(net.get("scale_out_gbit_s"), "network.scale_out_gbit_s", "no per-GPU rate override when "
                            + "network.topology names a fabric (its links set the scale-out rate)",
                            "an override beside topology '" + t.id() + "'");
                    break;
                }
            }
        }
        List<Integer> gpus = List.of();
        MapNode cluster = r.map(r.required(root, "", "cluster", "a mapping with gpu_count"), "cluster");
        if (cluster != null) {
            r.knownKeys(cluster, "cluster", "cluster");
            gpus = r.list(r.required(cluster, "cluster", "gpu_count", "a list of GPU counts"), "cluster.gpu_count",
                    (n, p) -> r.integer(n, p, 1, SweepReader.MAX_GPUS, "an integer in [1, " + SweepReader.MAX_GPUS
                            + "]"));
        }
        return new Network(scaleOuts, gbps, domains, topologies, gpus);
    }

    /**
     * Builds every topology for every cluster it will meet (GPU count x scale-out network x scale-up domain); the
     * first that cannot be built is an error at its entry. Run once the rest of the spec is valid.
     */
    void checkTopologies(MapNode root, Network n, HardwareReader.Hardware hw) {
        MapNode net = root.get("network") instanceof MapNode m ? m : null;
        SpecNode node = net == null ? null : net.get("topology");
        if (node == null) {
            return;
        }
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < n.topologies().size(); i++) {
            String path = n.topologies().size() == 1 && node instanceof Scalar ? "network.topology"
                    : "network.topology[" + i + "]";
            SpecNode at = node instanceof ListNode l ? l.items().get(i) : node;
            TopologyAxis t = n.topologies().get(i);
            if (ids.contains(t.id())) {
                r.error(at, path + ".name", "distinct topology names (set name: to tell them apart)",
                        "'" + t.id() + "' again");
                continue;
            }
            ids.add(t.id());
            InputError e = firstProblem(t, n, hw);
            if (e != null) {
                r.error(at, path, e.expected(), e.found());
            }
        }
    }

    private InputError firstProblem(TopologyAxis t, Network n, HardwareReader.Hardware hw) {
        for (String chipId : hw.chips()) {
            Chip chip = null;
            for (DerivedDesign d : hw.designs()) {
                if (d.id().equals(chipId)) {
                    chip = d.build(r.technology);
                }
            }
            if (chip == null) {
                chip = r.hardware.chip(chipId);
            }
            for (String out : n.scaleOuts()) {
                String netId = out.equals(SweepSpec.DEFAULT) ? r.hardware.defaultNetwork(chip).id() : out;
                for (int domain : n.domains()) {
                    int dom = domain > 0 ? domain : chip.scaleUpDomain();
                    for (int g : n.gpus()) {
                        try {
                            t.build(g, dom, netId, r.technology);
                        } catch (InvalidInputException e) {
                            InputError first = e.errors().get(0);
                            return InputError.of(r.source(), "", "a " + t.kind() + " that can connect " + g
                                    + " GPUs on " + netId + " (" + first.fieldPath() + ": " + first.expected() + ")",
                                    first.found());
                        }
                    }
                }
            }
        }
        return null;
    }
}
