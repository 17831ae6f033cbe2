package io.ridgeline.engine.sensitivity;

import io.ridgeline.engine.energy.ChipEnergy;
import io.ridgeline.engine.evaluation.Resource;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.technology.Architecture;
import io.ridgeline.engine.technology.ChipBuilder;
import io.ridgeline.engine.technology.DieCost;
import io.ridgeline.engine.technology.DramType;
import io.ridgeline.engine.technology.LinkType;
import io.ridgeline.engine.technology.LogicNode;
import io.ridgeline.engine.technology.SwitchType;
import io.ridgeline.engine.technology.TechnologyCatalog;

import java.util.Locale;

/**
 * What +10% of each {@link Resource} costs one GPU, in USD (what a buyer pays) and in W, from the technology and cost
 * catalogues (docs/SENSITIVITY.md sec. 2). NaN where no catalogue prices it (latency, launch overhead; a node or link
 * the catalogue lacks); 0 W where the catalogue has no power for it (HBM capacity: no standby power is catalogued).
 *
 * <ul>
 *   <li>FLOPS: 10% more compute units: units x the architecture's unit area at the chip's node
 *       (architectures.csv, logic_nodes.csv) x the node's good-die $/mm2 (wafer price, dies per wafer, yield: DieCost)
 *       x the vendor markup; power: 10% of the dynamic compute power at the TDP anchor (ChipEnergy: e_flop x the
 *       sustained bf16 rate).</li>
 *   <li>HBM_BW: 10% more stacks (dram_types.csv per-stack bandwidth): their DRAM (GiB x $/GiB) and PHY area, x markup;
 *       power: 10% of the DRAM I/O power at full bandwidth (pJ/bit). The capacity they bring is not credited.</li>
 *   <li>HBM_CAPACITY: 10% more GiB at the type's $/GiB x markup (taller stacks); 0 W.</li>
 *   <li>SCALE_UP_BW: 10% more links (links.csv): PHY area x markup, a cable and a switch port (switches.csv price and
 *       power over radix) each; power: link pJ/bit x the added rate both ways plus the switch ports.</li>
 *   <li>SCALE_OUT_BW: 10% more NIC ports (links.csv entry of the network): NIC, two optics, a cable and one leaf
 *       switch port each; power: the network's pJ/bit x the added rate both ways plus the switch ports.</li>
 * </ul>
 * Chip-side prices use the markup of {@link ChipBuilder#DEFAULT_PRICE_MARKUP} (presets) or the derived chip's; a
 * preset's die is taken as {@link #PRESET_DIE_MM2} for its $/mm2.
 */
final class ResourcePrices {
    /**
     * Die area for a preset's $/mm2: the catalogue's presets have reticle-class compute dies (A100 826 mm2, H100 814
     * mm2, B200 two of ~800 mm2: vendor whitepapers).
     */
    static final double PRESET_DIE_MM2 = 800;
    private static final double GIB = 1024.0 * 1024 * 1024;

    private final double[] usd = new double[Resource.values().length];
    private final double[] watts = new double[Resource.values().length];

    /**
     * @param node      the chip's logic node id ("" unknown)
     * @param dieMm2    area of one compute die
     * @param markup    price over manufacturing cost
     * @param energy    the system's energy coefficients
     */
    ResourcePrices(SystemSpec system, TechnologyCatalog tech, String node, double dieMm2, double markup,
                   ChipEnergy energy) {
        java.util.Arrays.fill(usd, Double.NaN);
        java.util.Arrays.fill(watts, Double.NaN);
        Chip chip = system.chip();
        double step = Resource.STEP_FRACTION;
        LogicNode n = tech.nodes().get(node);
        double usdPerMm2 = Double.NaN;
        if (n != null) {
            double good = DieCost.diesPerWafer(dieMm2)
                    * DieCost.negativeBinomialYield(dieMm2, n.defectsPerCm2(), ChipBuilder.DEFAULT_YIELD_ALPHA);
            usdPerMm2 = n.waferUsd() / good / dieMm2;
        }
        Architecture arch = tech.architectures().get(chip.family().name().toLowerCase(Locale.ROOT));
        if (arch != null && n != null) {
            set(Resource.FLOPS, step * chip.smCount() * arch.unitMm2(n) * usdPerMm2 * markup, Double.NaN);
        }
        Precision bf16 = Precision.BF16;
        watts[Resource.FLOPS.ordinal()] = step * energy.joulesPerFlop(bf16) * chip.peakFlopsPerSecond(bf16)
                * chip.family().gemmPeakFraction(bf16);
        DramType dram = tech.drams().get(chip.memoryType().toLowerCase(Locale.ROOT));
        if (dram != null) {
            double stacks = chip.memoryBytesPerSecond() / dram.bytesPerSecondPerStack();
            double stackUsd = dram.bytesPerStack() / GIB * dram.usdPerGib() + dram.phyMm2() * usdPerMm2;
            set(Resource.HBM_BW, step * stacks * stackUsd * markup,
                    step * chip.memoryBytesPerSecond() * energy.dramJoulesPerByte());
            set(Resource.HBM_CAPACITY, step * chip.memoryBytes() / GIB * dram.usdPerGib() * markup, 0);
        }
        LinkType up = tech.links().get(chip.scaleUpLink().toLowerCase(Locale.ROOT));
        if (up != null) {
            double links = step * system.scaleUpBytesPerSecond() / up.bytesPerSecond();
            SwitchType sw = switchFor(tech, up);
            double portUsd = sw == null ? 0 : sw.usd() / sw.radix();
            double portWatts = sw == null ? 0 : sw.watts() / sw.radix();
            set(Resource.SCALE_UP_BW, links * (up.phyMm2() * usdPerMm2 * markup + up.cableUsd() + portUsd),
                    2 * step * system.scaleUpBytesPerSecond() * energy.scaleUpJoulesPerByte() + links * portWatts);
        }
        LinkType out = scaleOutLink(tech, system.scaleOut().id());
        if (out != null) {
            double ports = step * system.scaleOut().bytesPerSecond() / out.bytesPerSecond();
            SwitchType sw = switchFor(tech, out);
            double portUsd = sw == null ? 0 : sw.usd() / sw.radix();
            double portWatts = sw == null ? 0 : sw.watts() / sw.radix();
            set(Resource.SCALE_OUT_BW, ports * (out.usdPerPort() + 2 * out.opticUsd() + out.cableUsd() + portUsd),
                    2 * step * system.scaleOut().bytesPerSecond() * energy.scaleOutJoulesPerByte() + ports * portWatts);
        }
    }

    private void set(Resource r, double dollars, double w) {
        usd[r.ordinal()] = dollars;
        watts[r.ordinal()] = w;
    }

    /** USD per GPU of +10% of {@code r}; NaN when unpriced. */
    double usd(Resource r) {
        return usd[r.ordinal()];
    }

    /** W per GPU of +10% of {@code r}; NaN when unpriced, 0 when it draws nothing catalogued. */
    double watts(Resource r) {
        return watts[r.ordinal()];
    }

    /** The scale-out network's port in links.csv: the same id, or InfiniBand's "ib-" + id (scaleout.csv ids hdr...). */
    private static LinkType scaleOutLink(TechnologyCatalog tech, String networkId) {
        LinkType l = tech.links().get(networkId);
        return l != null ? l : tech.links().get("ib-" + networkId);
    }

    /** The first catalogued switch with ports of this link type, or null. */
    private static SwitchType switchFor(TechnologyCatalog tech, LinkType link) {
        for (SwitchType s : tech.switches().values()) {
            if (s.link().id().equals(link.id())) {
                return s;
            }
        }
        return null;
    }
}
