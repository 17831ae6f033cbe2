package io.ridgeline.engine.technology;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Derives a {@link Chip} from technology (MODEL.md sec. 2): node, die area, power budget, SRAM, DRAM and links.
 *
 * <ol>
 *   <li>Die budget: compute area = dies x area x (1 - uncore) - L2 - DRAM PHYs - link PHYs; units = compute area /
 *       unit area(node) (DeepFlow recipe: x0.67 per node step).</li>
 *   <li>DRAM: stacks limited by the die edge (shoreline) and the interposer area; bandwidth and capacity = stacks x
 *       per-stack values.</li>
 *   <li>Power: what is left of the budget after static, DRAM I/O and link power drives the compute; the voltage V
 *       solves units x FLOP/cycle x f(V) x E(V) = P with f ~ (V - Vt)^alpha / V and E ~ V^2, clamped to [Vmin, Vmax]
 *       (below Vmin the clock scales down linearly at Vmin).</li>
 *   <li>Cost: dies per wafer, negative-binomial yield, DRAM $/GiB, interposer and assembly; price = cost x markup.</li>
 * </ol>
 * Every default below is an assumption a sweep may override; each says where it comes from.
 */
public final class ChipBuilder {
    /** Full-field reticle 26 x 33 mm (ASML/TSMC): the largest die one exposure makes. */
    public static final double RETICLE_MM2 = 26.0 * 33.0;
    /** Long over short edge of a large die: the reticle's 33/26 (assumption: big dies fill the field). */
    public static final double DIE_ASPECT = 33.0 / 26.0;
    /** Die share of NoC, PCIe, media, controllers, die-to-die (assumption; fits GA100/GH100 die-shot layouts roughly). */
    public static final double DEFAULT_UNCORE_FRACTION = 0.15;
    /** Share of the power budget to leakage, clocks and uncore at TDP (assumption). */
    public static final double DEFAULT_STATIC_POWER_FRACTION = 0.25;
    /** Fraction of physical units enabled when no count is given (assumption; A100 84%, H100 92%, B200 92.5%). */
    public static final double DEFAULT_ENABLED_FRACTION = 0.9;
    /** Interposer limit: CoWoS-L at ~3.3 reticles (assumption from TSMC 2023 CoWoS roadmap). */
    public static final double DEFAULT_PACKAGE_LIMIT_MM2 = 3.3 * RETICLE_MM2;
    /** Defect clustering parameter of the negative-binomial yield (assumption; 2-5 is the usual range). */
    public static final double DEFAULT_YIELD_ALPHA = 3.0;
    /** Silicon interposer price per mm^2 (assumption; ~$750 for an H100-size CoWoS-S interposer). */
    public static final double DEFAULT_INTERPOSER_USD_PER_MM2 = 0.30;
    /** Substrate, assembly and test per package (assumption). */
    public static final double DEFAULT_ASSEMBLY_USD = 300;
    /**
     * Vendor price over manufacturing cost. Assumption fitted so the rebuilt H100 SXM (node, area, power, memory of the
     * datasheet) prices at the catalogue's $30,000 street-price estimate; ChipBuilderTest pins it within 10%.
     */
    public static final double DEFAULT_PRICE_MARKUP = 12.4;
    /** Default scale-up domain of a derived chip (an 8-GPU NVSwitch node, as the presets). */
    public static final int DEFAULT_SCALE_UP_DOMAIN = 8;

    private static final double MIB = 1024.0 * 1024;
    private static final double GIB = 1024.0 * MIB;
    private static final String SOURCE = "chip builder";

    private final TechnologyCatalog catalog;
    private String id = "derived";
    private String name;
    private String architecture = "blackwell";
    private String node;
    private int dieCount = 1;
    private double dieAreaMm2 = Double.NaN;
    private double powerBudgetWatts = Double.NaN;
    private double l2Bytes = Double.NaN;
    private double smemBytesPerUnit = Double.NaN;
    private String dramType;
    private int dramStacks = -1;
    private double dramPinGbitPerSecond = Double.NaN;
    private double dramBytesPerStack = Double.NaN;
    private String scaleUpLink = "nvlink5";
    private int scaleUpLinks = 18;
    private int scaleUpDomain = DEFAULT_SCALE_UP_DOMAIN;
    private int enabledUnits = -1;
    private double enabledFraction = DEFAULT_ENABLED_FRACTION;
    private double uncoreFraction = DEFAULT_UNCORE_FRACTION;
    private double staticPowerFraction = DEFAULT_STATIC_POWER_FRACTION;
    private double packageLimitMm2 = DEFAULT_PACKAGE_LIMIT_MM2;
    private double yieldAlpha = DEFAULT_YIELD_ALPHA;
    private double priceMarkup = DEFAULT_PRICE_MARKUP;

    private ChipBuilder(TechnologyCatalog catalog) {
        this.catalog = catalog;
    }

    /** A builder over the bundled catalogues. */
    public static ChipBuilder create() {
        return new ChipBuilder(TechnologyCatalog.bundled());
    }

    public static ChipBuilder create(TechnologyCatalog catalog) {
        return new ChipBuilder(catalog);
    }

    public ChipBuilder id(String v) {
        id = v;
        return this;
    }

    public ChipBuilder name(String v) {
        name = v;
        return this;
    }

    /** Microarchitecture id from catalog/architectures.csv (default "blackwell"). */
    public ChipBuilder architecture(String v) {
        architecture = v;
        return this;
    }

    /** Logic node id from catalog/logic_nodes.csv, e.g. "5nm". */
    public ChipBuilder node(String v) {
        node = v;
        return this;
    }

    /** Area of each compute die; {@code dies} identical dies share one package (default 1). */
    public ChipBuilder dies(int dies, double areaMm2PerDie) {
        dieCount = dies;
        dieAreaMm2 = areaMm2PerDie;
        return this;
    }

    public ChipBuilder dieAreaMm2(double v) {
        return dies(1, v);
    }

    public ChipBuilder powerBudgetWatts(double v) {
        powerBudgetWatts = v;
        return this;
    }

    public ChipBuilder l2Bytes(double v) {
        l2Bytes = v;
        return this;
    }

    /** Shared memory/L1 per unit; differences from the architecture's own size add or save unit area. */
    public ChipBuilder smemBytesPerUnit(double v) {
        smemBytesPerUnit = v;
        return this;
    }

    public ChipBuilder dram(String type, int stacks) {
        dramType = type;
        dramStacks = stacks;
        return this;
    }

    /** A pin rate other than the catalogue's (products often ship below the JEDEC maximum). */
    public ChipBuilder dramPinGbitPerSecond(double v) {
        dramPinGbitPerSecond = v;
        return this;
    }

    public ChipBuilder dramBytesPerStack(double v) {
        dramBytesPerStack = v;
        return this;
    }

    public ChipBuilder scaleUp(String link, int links, int domain) {
        scaleUpLink = link;
        scaleUpLinks = links;
        scaleUpDomain = domain;
        return this;
    }

    /** Units left enabled (a product's SM count); by default {@link #DEFAULT_ENABLED_FRACTION} of the physical ones. */
    public ChipBuilder enabledUnits(int v) {
        enabledUnits = v;
        return this;
    }

    public ChipBuilder enabledFraction(double v) {
        enabledFraction = v;
        return this;
    }

    public ChipBuilder uncoreFraction(double v) {
        uncoreFraction = v;
        return this;
    }

    public ChipBuilder staticPowerFraction(double v) {
        staticPowerFraction = v;
        return this;
    }

    public ChipBuilder packageLimitMm2(double v) {
        packageLimitMm2 = v;
        return this;
    }

    public ChipBuilder yieldAlpha(double v) {
        yieldAlpha = v;
        return this;
    }

    public ChipBuilder priceMarkup(double v) {
        priceMarkup = v;
        return this;
    }

    /** Builds the chip, or throws an {@link InvalidInputException} listing every bad input. */
    public DerivedChip build() {
        List<InputError> errors = new ArrayList<>();
        LogicNode n = resolve(errors, () -> catalog.node(node));
        Architecture arch = resolve(errors, () -> catalog.architecture(architecture));
        DramType dram = resolve(errors, () -> catalog.dram(dramType));
        LinkType link = resolve(errors, () -> catalog.link(scaleUpLink));
        check(errors, dieCount >= 1 && dieCount <= 8, "chip.dies", "an integer in [1, 8]", dieCount);
        check(errors, dieAreaMm2 > 0 && dieAreaMm2 <= RETICLE_MM2, "chip.dieAreaMm2",
                "a die area in (0, " + fmt(RETICLE_MM2) + "] mm2 (reticle limit; use more dies)", dieAreaMm2);
        check(errors, powerBudgetWatts > 0 && Double.isFinite(powerBudgetWatts), "chip.powerBudgetWatts",
                "a positive power", powerBudgetWatts);
        check(errors, l2Bytes > 0 && Double.isFinite(l2Bytes), "chip.l2Bytes", "a positive size", l2Bytes);
        check(errors, Double.isNaN(smemBytesPerUnit) || smemBytesPerUnit > 0, "chip.smemBytesPerUnit",
                "a positive size", smemBytesPerUnit);
        check(errors, dramStacks >= 1 && dramStacks <= 64, "chip.dram.stacks", "an integer in [1, 64]", dramStacks);
        check(errors, Double.isNaN(dramPinGbitPerSecond) || dramPinGbitPerSecond > 0, "chip.dram.pinGbitPerSecond",
                "a positive pin rate", dramPinGbitPerSecond);
        check(errors, Double.isNaN(dramBytesPerStack) || dramBytesPerStack > 0, "chip.dram.bytesPerStack",
                "a positive capacity", dramBytesPerStack);
        check(errors, scaleUpLinks >= 1 && scaleUpLinks <= 256, "chip.scaleUp.links", "an integer in [1, 256]",
                scaleUpLinks);
        check(errors, scaleUpDomain >= 1, "chip.scaleUp.domain", "a positive integer", scaleUpDomain);
        check(errors, enabledUnits == -1 || enabledUnits >= 1, "chip.enabledUnits", "a positive integer",
                enabledUnits);
        check(errors, enabledFraction > 0 && enabledFraction <= 1, "chip.enabledFraction", "a fraction in (0, 1]",
                enabledFraction);
        check(errors, uncoreFraction >= 0 && uncoreFraction < 1, "chip.uncoreFraction", "a fraction in [0, 1)",
                uncoreFraction);
        check(errors, staticPowerFraction >= 0 && staticPowerFraction < 1, "chip.staticPowerFraction",
                "a fraction in [0, 1)", staticPowerFraction);
        check(errors, packageLimitMm2 > 0, "chip.packageLimitMm2", "a positive area", packageLimitMm2);
        check(errors, yieldAlpha > 0, "chip.yieldAlpha", "a positive number", yieldAlpha);
        check(errors, priceMarkup > 0, "chip.priceMarkup", "a positive number", priceMarkup);
        if (link != null && !link.scaleUp()) {
            errors.add(InputError.of(SOURCE, "chip.scaleUp.link", "a scale-up link (NVLink/PCIe), not a NIC",
                    "'" + scaleUpLink + "'"));
        }
        throwIfAny(errors);

        // 1. DRAM stacks: shoreline and package.
        double siliconMm2 = dieCount * dieAreaMm2;
        double longEdgeMm = Math.sqrt(dieAreaMm2 * DIE_ASPECT);
        double shortEdgeMm = dieAreaMm2 / longEdgeMm;
        // Single die: DRAM on the two long edges, I/O on the short ones (GA100/GH100 layout). Several dies: one long
        // edge is the die-to-die bridge and the other I/O, so DRAM gets the two short edges (B200 layout).
        double shorelinePerDieMm = dieCount == 1 ? 2 * longEdgeMm : 2 * shortEdgeMm;
        int byShoreline = dieCount * (int) Math.floor(shorelinePerDieMm / dram.shorelineMm() + 1e-9);
        int byPackage = Integer.MAX_VALUE;
        if (dram.onPackage() && dram.footprintMm2() > 0) {
            byPackage = (int) Math.floor((packageLimitMm2 - siliconMm2) / dram.footprintMm2() + 1e-9);
        }
        int stacks = Math.min(dramStacks, Math.min(byShoreline, byPackage));
        StackLimit stackLimit = stacks == dramStacks ? StackLimit.NONE
                : byShoreline <= byPackage ? StackLimit.SHORELINE : StackLimit.PACKAGE;
        if (stacks < 1) {
            throw new InvalidInputException(InputError.of(SOURCE, "chip.dram.stacks",
                    "a design where at least one " + dram.id() + " stack fits (shoreline allows " + byShoreline
                            + ", package allows " + byPackage + ")", String.valueOf(dramStacks)));
        }

        // 2. Die budget and units.
        double l2Mm2 = l2Bytes / MIB * n.sramMm2PerMib();
        double dramPhyMm2 = stacks * dram.phyMm2();
        double linkPhyMm2 = scaleUpLinks * link.phyMm2();
        double computeMm2 = siliconMm2 * (1 - uncoreFraction) - l2Mm2 - dramPhyMm2 - linkPhyMm2;
        double smem = Double.isNaN(smemBytesPerUnit) ? arch.smemBytesPerUnit() : smemBytesPerUnit;
        double unitMm2 = arch.unitMm2(n) + (smem - arch.smemBytesPerUnit()) / MIB * n.sramMm2PerMib();
        int physical = (int) Math.floor(computeMm2 / unitMm2 + 1e-6);
        if (physical < 1) {
            throw new InvalidInputException(InputError.of(SOURCE, "chip.dieAreaMm2",
                    "room for at least one compute unit of " + fmt(unitMm2) + " mm2 after uncore, L2 ("
                            + fmt(l2Mm2) + " mm2) and PHYs (" + fmt(dramPhyMm2 + linkPhyMm2) + " mm2)",
                    fmt(dieAreaMm2) + " mm2 x " + dieCount));
        }
        int enabled = enabledUnits > 0 ? enabledUnits
                : Math.max(1, (int) Math.floor(physical * enabledFraction + 1e-9));
        if (enabled > physical) {
            throw new InvalidInputException(InputError.of(SOURCE, "chip.enabledUnits",
                    "at most the " + physical + " units that fit on the die", String.valueOf(enabled)));
        }

        // 3. Memory and links.
        double pin = Double.isNaN(dramPinGbitPerSecond) ? dram.pinGbitPerSecond() : dramPinGbitPerSecond;
        double memoryBytesPerSecond = stacks * dram.bytesPerSecondPerStack(pin);
        double memoryBytes = stacks * (Double.isNaN(dramBytesPerStack) ? dram.bytesPerStack() : dramBytesPerStack);
        double scaleUpBytesPerSecond = scaleUpLinks * link.bytesPerSecond();

        // 4. Power split and the voltage/frequency point.
        double staticWatts = powerBudgetWatts * staticPowerFraction;
        double dramWatts = memoryBytesPerSecond * 8 * dram.joulesPerBit();
        double linkWatts = scaleUpBytesPerSecond * 2 * 8 * link.joulesPerBit();
        double computeBudgetWatts = powerBudgetWatts - staticWatts - dramWatts - linkWatts;
        if (!(computeBudgetWatts > 0)) {
            throw new InvalidInputException(InputError.of(SOURCE, "chip.powerBudgetWatts",
                    "more than the " + fmt(staticWatts + dramWatts + linkWatts)
                            + " W that static, DRAM and link power take", fmt(powerBudgetWatts) + " W"));
        }
        double flopsPerCycle = enabled * arch.bf16FlopsPerCyclePerUnit();
        OperatingPoint op = operatingPoint(n, arch.energyScale(), flopsPerCycle, computeBudgetWatts);

        // 5. The chip.
        double[] peaks = new double[Precision.values().length];
        for (Precision p : Precision.values()) {
            peaks[p.ordinal()] = flopsPerCycle * op.hz() * arch.ratio(p);
        }
        DieCost cost = cost(n, dram, memoryBytes, stacks);
        String label = name != null ? name : String.format(Locale.ROOT, "%s %s %dx%.0fmm2 %.0fW %s x%d",
                arch.id(), n.id(), dieCount, dieAreaMm2, powerBudgetWatts, dram.id(), stacks);
        Chip chip = new Chip(id, label, arch.family(), dram.id(), memoryBytes, memoryBytesPerSecond, peaks, enabled,
                op.hz(), l2Bytes, arch.l2BytesPerCyclePerUnit() * enabled * op.hz(), smem, link.id(),
                scaleUpBytesPerSecond, scaleUpDomain, staticWatts + dramWatts + linkWatts + op.watts(),
                cost.priceUsd(), "derived by ChipBuilder: " + label);
        return new DerivedChip(chip, physical, enabled, computeMm2, op.hz(), op.volts(), op.limit(), op.watts(), dramWatts,
                linkWatts, staticWatts, dramStacks, stacks, stackLimit, cost);
    }

    /** The voltage and clock a compute power budget buys (see {@link OperatingPoint#solve}). */
    static OperatingPoint operatingPoint(LogicNode n, double energyScale, double flopsPerCycle, double budgetWatts) {
        return OperatingPoint.solve(n, energyScale, flopsPerCycle, budgetWatts);
    }

    private DieCost cost(LogicNode n, DramType dram, double memoryBytes, int stacks) {
        double dpw = DieCost.diesPerWafer(dieAreaMm2);
        double yield = DieCost.negativeBinomialYield(dieAreaMm2, n.defectsPerCm2(), yieldAlpha);
        double goodDie = n.waferUsd() / (dpw * yield);
        double silicon = dieCount * goodDie;
        double dramUsd = memoryBytes / GIB * dram.usdPerGib();
        boolean interposer = dieCount > 1 || dram.onPackage();
        double interposerMm2 = dieCount * dieAreaMm2 + (dram.onPackage() ? stacks * dram.footprintMm2() : 0);
        double packageUsd = DEFAULT_ASSEMBLY_USD + (interposer ? interposerMm2 * DEFAULT_INTERPOSER_USD_PER_MM2 : 0);
        double manufacturing = silicon + dramUsd + packageUsd;
        return new DieCost(dpw, yield, goodDie, silicon, dramUsd, packageUsd, manufacturing,
                manufacturing * priceMarkup);
    }

    private interface Lookup<T> {
        T get();
    }

    private static <T> T resolve(List<InputError> errors, Lookup<T> lookup) {
        try {
            return lookup.get();
        } catch (InvalidInputException e) {
            errors.addAll(e.errors());
            return null;
        }
    }

    private static void check(List<InputError> errors, boolean ok, String field, String expected, double found) {
        if (!ok) {
            errors.add(InputError.of(SOURCE, field, expected, fmt(found)));
        }
    }

    private static void throwIfAny(List<InputError> errors) {
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    private static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "nothing";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return String.valueOf((long) v);
        }
        return String.format(Locale.ROOT, "%.4g", v);
    }
}
