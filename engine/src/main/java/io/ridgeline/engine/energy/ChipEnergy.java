package io.ridgeline.engine.energy;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.technology.ChipBuilder;
import io.ridgeline.engine.technology.DramType;
import io.ridgeline.engine.technology.LinkType;
import io.ridgeline.engine.technology.TechnologyCatalog;

import java.util.Arrays;
import java.util.Locale;

/**
 * Energy coefficients of one accelerator in one system, SI units: joules per FLOP by precision, per DRAM byte, per byte
 * sent on a scale-up link and on the scale-out network, and static power. Built once per system (not per point).
 *
 * <p>Per-FLOP energy is anchored on TDP (vendors rate TDP at full tensor load): a large square GEMM (n = 8192) at the
 * chip's sustained rate (what {@link GemmModel} predicts for it, about dense peak x family {@code gemmPeakFraction})
 * draws exactly TDP, i.e.
 * {@code e_flop(p) = (TDP - P_static - P_dram(anchor)) / R_sustained(p)} with {@code P_dram(anchor) = 1.5 b R / n x
 * e_dram} (operands and output once: 3 n^2 b bytes in 2 n^3 / R seconds). The same formula serves presets and derived
 * chips (whose TDP is the builder's power budget), so both are treated alike; the logic node's recipe energy
 * ({@code logic_nodes.csv} x {@code architectures.csv energy_scale}) is the independent cross-check (docs/TECHNOLOGY.md).
 * On-chip SRAM/L2 traffic is folded into the per-FLOP energy (the anchor GEMM's tile traffic is part of what it draws).
 *
 * @param joulesPerFlop        by {@link Precision#ordinal()}; formats the chip lacks use the wider format it falls back to
 * @param dramJoulesPerByte    catalog/dram_types.csv pj_per_bit of the chip's memory type x 8
 * @param scaleUpJoulesPerByte catalog/links.csv pj_per_bit of the chip's scale-up link x 8 (both ends included)
 * @param scaleOutJoulesPerByte the system's scale-out network pj_per_bit x 8 (NIC and optics)
 * @param staticWatts          leakage, clocks and uncore while powered: {@link #STATIC_POWER_FRACTION} x TDP
 */
public record ChipEnergy(String chipId, double tdpWatts, double staticWatts, double[] joulesPerFlop,
                         double dramJoulesPerByte, double scaleUpJoulesPerByte, double scaleOutJoulesPerByte) {
    /**
     * Static share of TDP (assumption, shared with {@link ChipBuilder}'s power split): measured H100 SXM draws ~70-100 W
     * idle at base clocks but ~150-200 W busy-waiting on communication with clocks up; 0.25 x 700 W = 175 W.
     */
    public static final double STATIC_POWER_FRACTION = ChipBuilder.DEFAULT_STATIC_POWER_FRACTION;
    /** Side of the square GEMM that anchors per-FLOP energy on TDP (large enough to be compute-bound on every chip). */
    public static final double ANCHOR_GEMM_SIZE = 8192;
    /** DRAM energy when the memory type is not in the catalogue: HBM2e class, 3.5 pJ/bit (assumption). */
    static final double FALLBACK_DRAM_JOULES_PER_BIT = 3.5e-12;
    /** Scale-up link energy when the link is not in the catalogue: as NVLink, 5 pJ/bit (assumption). */
    static final double FALLBACK_LINK_JOULES_PER_BIT = 5.0e-12;

    public ChipEnergy {
        joulesPerFlop = joulesPerFlop.clone();
        if (!(tdpWatts > 0) || staticWatts < 0 || staticWatts >= tdpWatts || !(dramJoulesPerByte >= 0)
                || !(scaleUpJoulesPerByte >= 0) || !(scaleOutJoulesPerByte >= 0)
                || joulesPerFlop.length != Precision.values().length) {
            throw new IllegalArgumentException("invalid energy coefficients for " + chipId);
        }
    }

    /**
     * Coefficients of {@code system}'s chip, with DRAM and scale-up link energies from the technology catalogue; the
     * sustained rate of the anchor GEMM comes from {@code gemm} (the chip's own GEMM model, so "saturated" means what the
     * engine itself predicts for a large GEMM).
     */
    public static ChipEnergy of(SystemSpec system, TechnologyCatalog tech, GemmModel gemm) {
        Chip chip = system.chip();
        if (!gemm.chip().equals(chip)) {
            throw new IllegalStateException("GEMM model of " + gemm.chip().id() + " used for " + chip.id());
        }
        DramType dram = tech.drams().get(chip.memoryType().toLowerCase(Locale.ROOT));
        LinkType link = tech.links().get(chip.scaleUpLink().toLowerCase(Locale.ROOT));
        double dramPerByte = 8 * (dram != null ? dram.joulesPerBit() : FALLBACK_DRAM_JOULES_PER_BIT);
        double upPerByte = 8 * (link != null ? link.joulesPerBit() : FALLBACK_LINK_JOULES_PER_BIT);
        double outPerByte = 8 * system.scaleOut().joulesPerBit();
        double tdp = chip.tdpWatts();
        double staticWatts = STATIC_POWER_FRACTION * tdp;
        double[] perFlop = new double[Precision.values().length];
        for (Precision p : Precision.values()) {
            double n = ANCHOR_GEMM_SIZE;
            double sustained = 2 * n * n * n / gemm.seconds(n, n, n, p);
            perFlop[p.ordinal()] = anchorJoulesPerFlop(tdp, staticWatts, sustained, p.bytes(), dramPerByte);
        }
        return new ChipEnergy(chip.id(), tdp, staticWatts, perFlop, dramPerByte, upPerByte, outPerByte);
    }

    /**
     * Energy per FLOP such that a square GEMM of side {@link #ANCHOR_GEMM_SIZE} at {@code sustainedFlopsPerSecond}
     * draws {@code tdpWatts}: (TDP - static - DRAM power of that GEMM) / rate.
     */
    public static double anchorJoulesPerFlop(double tdpWatts, double staticWatts, double sustainedFlopsPerSecond,
                                             double operandBytes, double dramJoulesPerByte) {
        double dramBytesPerSecond = 1.5 * operandBytes * sustainedFlopsPerSecond / ANCHOR_GEMM_SIZE;
        double dynamicWatts = tdpWatts - staticWatts - dramBytesPerSecond * dramJoulesPerByte;
        if (!(dynamicWatts > 0)) {
            throw new IllegalStateException("TDP leaves no compute power after static and DRAM power");
        }
        return dynamicWatts / sustainedFlopsPerSecond;
    }

    public double joulesPerFlop(Precision p) {
        return joulesPerFlop[p.ordinal()];
    }

    /** Dynamic (activity) energy of work: FLOPs in {@code p}, DRAM bytes, scale-up and scale-out bytes sent. */
    public double dynamicJoules(double flops, Precision p, double dramBytes, double scaleUpBytes, double scaleOutBytes) {
        return flops * joulesPerFlop[p.ordinal()] + dramBytes * dramJoulesPerByte + scaleUpBytes * scaleUpJoulesPerByte
                + scaleOutBytes * scaleOutJoulesPerByte;
    }

    /**
     * Accelerator energy of {@code gpus} devices over {@code seconds}: static power x time plus the dynamic energy,
     * capped at TDP x time (a board cannot draw above its limit; the clocks throttle instead).
     */
    public double joules(double dynamicJoules, double seconds, int gpus) {
        double floor = gpus * staticWatts * seconds;
        return Math.min(gpus * tdpWatts * seconds, floor + dynamicJoules);
    }

    /** Indexes of {@link #split}'s output. */
    public static final int COMPUTE = 0, DRAM = 1, SCALE_UP = 2, SCALE_OUT = 3, STATIC = 4, COMPONENTS = 5;

    /**
     * {@link #joules}, by component into {@code out} (indexes above): compute (FLOPs; on-chip SRAM/L2 traffic is part
     * of the per-FLOP energy, see the class comment), DRAM, scale-up, scale-out, static. They add up to {@code
     * joules(dynamicJoules(...), seconds, gpus)}: when TDP caps the total, the dynamic parts shrink alike (the board
     * throttles its clocks, slowing all activity).
     */
    public void split(double flops, Precision p, double dramBytes, double scaleUpBytes, double scaleOutBytes,
                      double seconds, int gpus, double[] out) {
        out[COMPUTE] = flops * joulesPerFlop[p.ordinal()];
        out[DRAM] = dramBytes * dramJoulesPerByte;
        out[SCALE_UP] = scaleUpBytes * scaleUpJoulesPerByte;
        out[SCALE_OUT] = scaleOutBytes * scaleOutJoulesPerByte;
        out[STATIC] = gpus * staticWatts * seconds;
        double dynamic = out[COMPUTE] + out[DRAM] + out[SCALE_UP] + out[SCALE_OUT];
        double total = joules(dynamic, seconds, gpus);
        double scale = dynamic > 0 ? (total - out[STATIC]) / dynamic : 1;
        for (int i = COMPUTE; i <= SCALE_OUT; i++) {
            out[i] *= scale;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChipEnergy e && e.chipId.equals(chipId) && e.tdpWatts == tdpWatts
                && Arrays.equals(e.joulesPerFlop, joulesPerFlop) && e.dramJoulesPerByte == dramJoulesPerByte
                && e.scaleUpJoulesPerByte == scaleUpJoulesPerByte && e.scaleOutJoulesPerByte == scaleOutJoulesPerByte;
    }

    @Override
    public int hashCode() {
        return chipId.hashCode() * 31 + Arrays.hashCode(joulesPerFlop);
    }
}
