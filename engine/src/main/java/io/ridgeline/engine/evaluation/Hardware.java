package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.cost.GpuHourCost;
import io.ridgeline.engine.cost.TcoModel;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.ScaleOutNetwork;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.network.Topology;
import io.ridgeline.engine.sweep.DerivedDesign;
import io.ridgeline.engine.sweep.Grid;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.technology.DerivedChip;
import io.ridgeline.engine.technology.TechnologyCatalog;

import java.util.Locale;

/**
 * The hardware side of a sweep's grid points: chips (presets, and derived designs built once with the technology
 * catalogue), their networks, and per hardware point (chip x scale-out x rate x domain x topology x GPU count) the
 * {@link SystemSpec} with its $/GPU-hour and fabric capex, built on first use and cached.
 */
final class Hardware {
    private final SweepSpec spec;
    private final Chip[] chips;
    private final DerivedDesign[] designs;
    private final DerivedChip[] derived;
    private final String[] dramTypes;
    private final ScaleOutNetwork[][] networks;
    private final SystemSpec[] systems;
    private final GpuHourCost[] hourCosts;
    private final double[] fabricUsd;
    private final TcoModel tco;
    private final TechnologyCatalog tech = TechnologyCatalog.bundled();
    /** Set by {@link #system}: the cost of the point's hardware. */
    private GpuHourCost hourCost;
    private double fabricCapexUsd;
    /** What the evaluator's systems are made of: each built system goes through it once (sensitivities). */
    private final Evaluator.Variant variant;

    Hardware(SweepSpec spec, HardwareCatalog catalog, Evaluator.Variant variant) {
        this.spec = spec;
        this.variant = variant;
        int n = spec.chips().size();
        this.chips = new Chip[n];
        this.designs = new DerivedDesign[n];
        this.derived = new DerivedChip[n];
        this.dramTypes = new String[n];
        for (int i = 0; i < n; i++) {
            String id = spec.chips().get(i);
            for (DerivedDesign d : spec.derived()) {
                if (d.id().equals(id)) {
                    designs[i] = d;
                    derived[i] = d.derive(tech);
                }
            }
            chips[i] = derived[i] == null ? catalog.chip(id) : derived[i].chip();
            // dram_type ids ("HBM3e" -> "hbm3e"), lower-cased once per chip, not once per row
            dramTypes[i] = designs[i] != null ? designs[i].dram() : chips[i].memoryType().toLowerCase(Locale.ROOT);
        }
        this.networks = new ScaleOutNetwork[n][spec.scaleOuts().size()];
        for (int c = 0; c < n; c++) {
            for (int o = 0; o < spec.scaleOuts().size(); o++) {
                String id = spec.scaleOuts().get(o);
                networks[c][o] = id.equals(SweepSpec.DEFAULT) ? catalog.defaultNetwork(chips[c]) : catalog.network(id);
            }
        }
        long hardwarePoints = (long) n * spec.scaleOuts().size() * spec.scaleOutGbitPerSecond().size()
                * spec.scaleUpDomains().size() * spec.topologies().size() * spec.gpuCounts().size();
        this.systems = new SystemSpec[(int) Math.min(hardwarePoints, 1 << 24)];
        this.hourCosts = new GpuHourCost[systems.length];
        this.fabricUsd = new double[systems.length];
        this.tco = new TcoModel(spec.cost().parameters());
    }

    /** The $/GPU-hour of the hardware of the last {@link #system} call. */
    GpuHourCost hourCost() {
        return hourCost;
    }

    /** The fabric capex of the last {@link #system} call's topology; NaN without one. */
    double fabricCapexUsd() {
        return fabricCapexUsd;
    }

    /** The point's system; also sets {@link #hourCost} and {@link #fabricCapexUsd} for it. */
    SystemSpec system(int[] c) {
        int slot = ((((c[Grid.CHIP] * spec.scaleOuts().size() + c[Grid.SCALE_OUT]) * spec.scaleOutGbitPerSecond().size()
                + c[Grid.SCALE_OUT_RATE]) * spec.scaleUpDomains().size() + c[Grid.SCALE_UP_DOMAIN])
                * spec.topologies().size() + c[Grid.TOPOLOGY]) * spec.gpuCounts().size() + c[Grid.GPU_COUNT];
        SystemSpec s = slot < systems.length ? systems[slot] : null;
        if (s != null) {
            hourCost = hourCosts[slot];
            fabricCapexUsd = fabricUsd[slot];
            return s;
        }
        Chip chip = chips[c[Grid.CHIP]];
        ScaleOutNetwork net = networks[c[Grid.CHIP]][c[Grid.SCALE_OUT]];
        double gbps = spec.scaleOutGbitPerSecond().get(c[Grid.SCALE_OUT_RATE]);
        if (gbps > 0) {
            net = net.withGbitPerSecond(gbps);
        }
        s = SystemSpec.of(chip, spec.gpuCounts().get(c[Grid.GPU_COUNT]), net);
        int domain = spec.scaleUpDomains().get(c[Grid.SCALE_UP_DOMAIN]);
        if (domain > 0) {
            s = s.withScaleUpDomain(domain);
        }
        // Sized per GPU count; the loader built every combination once, so this cannot fail on a valid spec.
        Topology topology = spec.topologies().get(c[Grid.TOPOLOGY]).build(s.gpuCount(), s.scaleUpDomain(),
                networks[c[Grid.CHIP]][c[Grid.SCALE_OUT]].id(), tech);
        if (topology != null) {
            s = s.withScaleOutTopology(topology);
            fabricCapexUsd = topology.capex().totalUsd();
            hourCost = tco.gpuHour(chip.priceUsd(), chip.tdpWatts(), topology.capex(), s.gpuCount());
        } else {
            fabricCapexUsd = Double.NaN;
            hourCost = tco.gpuHour(chip.priceUsd(), chip.tdpWatts());
        }
        // a variant changes the hardware, not its price: the cost columns stay those of the base system
        s = variant.apply(s);
        if (slot < systems.length) {
            systems[slot] = s;
            hourCosts[slot] = hourCost;
            fabricUsd[slot] = fabricCapexUsd;
        }
        return s;
    }

    /** The point's hardware cells: model and phase settings shared by both phases, chip, network, design. */
    void writePoint(ResultRow p, SystemSpec system) {
        int chip = p.coords[Grid.CHIP];
        p.chip = system.chip();
        p.set(ResultRow.Text.MODEL, p.model.name());
        p.set(ResultRow.Text.PHASE, p.workload.phase().id());
        p.set(ResultRow.Count.SEQ_LEN, p.workload.seqLen());
        p.set(ResultRow.Count.GLOBAL_BATCH, p.workload.globalBatch());
        p.set(ResultRow.Text.CHIP, system.chip().id());
        p.set(ResultRow.Text.SCALE_OUT, system.scaleOut().id());
        p.set(ResultRow.Number.SCALE_OUT_GBIT_S, system.scaleOut().bytesPerSecond() * 8 / 1e9);
        p.set(ResultRow.Count.SCALE_UP_DOMAIN, system.scaleUpDomain());
        p.set(ResultRow.Text.TOPOLOGY, spec.topologies().get(p.coords[Grid.TOPOLOGY]).id());
        DerivedDesign d = designs[chip];
        p.set(ResultRow.Text.DRAM_TYPE, dramTypes[chip]);
        p.set(ResultRow.Text.LOGIC_NODE, d == null ? null : d.node());
        p.set(ResultRow.Number.DIE_AREA_MM2, d == null ? Double.NaN : d.dieAreaMm2());
        p.set(ResultRow.Number.POWER_BUDGET_W, d == null ? Double.NaN : d.powerWatts());
        if (d == null) {
            p.clear(ResultRow.Count.DRAM_STACKS).clear(ResultRow.Count.DIES);
        } else {
            // The stacks the chip has: the builder fits at most what the die edge and the package allow.
            p.set(ResultRow.Count.DRAM_STACKS, derived[chip].stacksFitted()).set(ResultRow.Count.DIES, d.dies());
        }
    }
}
