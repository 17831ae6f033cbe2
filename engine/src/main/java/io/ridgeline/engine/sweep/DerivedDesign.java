package io.ridgeline.engine.sweep;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.technology.ChipBuilder;
import io.ridgeline.engine.technology.DerivedChip;
import io.ridgeline.engine.technology.TechnologyCatalog;

import java.io.Serializable;
import java.util.Locale;

/**
 * One technology-derived chip of a sweep's {@code hardware.derived} product: the builder inputs only, so it ships to
 * executors as numbers and each rebuilds the same {@link Chip} with {@link ChipBuilder} (deterministic).
 *
 * @param l2Mib L2 capacity in MiB
 */
public record DerivedDesign(String id, String architecture, String node, int dies, double dieAreaMm2,
                            double powerWatts, double l2Mib, String dram, int stacks, String scaleUpLink,
                            int scaleUpLinks, int scaleUpDomain) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** The chip id: the design's name plus every swept parameter, e.g. study-3nm-2x800mm2-1000w-hbm4x8. */
    public static String id(String name, String node, int dies, double areaMm2, double watts, String dram, int stacks,
                     String architecture) {
        return String.format(Locale.ROOT, "%s-%s-%s-%dx%smm2-%sw-%sx%d", name, architecture, node, dies,
                plain(areaMm2), plain(watts), dram, stacks);
    }

    private static String plain(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }

    /** Builds the chip; throws the builder's InvalidInputException when the design cannot exist. */
    public Chip build(TechnologyCatalog catalog) {
        return derive(catalog).chip();
    }

    /** Builds the chip with the numbers behind it (stacks fitted, clock, power split, cost). */
    public DerivedChip derive(TechnologyCatalog catalog) {
        return ChipBuilder.create(catalog).id(id).architecture(architecture).node(node).dies(dies, dieAreaMm2)
                .powerBudgetWatts(powerWatts).l2Bytes(l2Mib * 1024 * 1024).dram(dram, stacks)
                .scaleUp(scaleUpLink, scaleUpLinks, scaleUpDomain).build();
    }
}
