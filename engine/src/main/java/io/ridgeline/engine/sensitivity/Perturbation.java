package io.ridgeline.engine.sensitivity;

import io.ridgeline.engine.evaluation.Resource;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.ChipFamily;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.hardware.ScaleOutNetwork;
import io.ridgeline.engine.network.SystemSpec;

/**
 * What +10% of a {@link Resource} does to a system: a {@code with}-copy of its chip, network or both, made once per
 * hardware point (the evaluator caches it) and then evaluated by the same phase models as the original.
 *
 * <ul>
 *   <li>FLOPS: the dense peak of the plan's precision (the entry the chip falls back to when it lacks the format) x
 *       1.1, clock and other formats unchanged: more tensor units, not a faster clock.</li>
 *   <li>HBM_BW / HBM_CAPACITY: device-memory bandwidth or capacity x 1.1.</li>
 *   <li>SCALE_UP_BW: per-GPU scale-up bandwidth x 1.1 (the system's, which the collectives read).</li>
 *   <li>SCALE_OUT_BW: the flat scale-out network's per-GPU rate x 1.1. A priced fabric (network.topology) keeps its
 *       own link rates: its paths are not perturbed.</li>
 *   <li>LATENCY: one collective step on scale-up and on scale-out x 1/1.1.</li>
 *   <li>LAUNCH: the chip family's fixed cost per kernel x 1/1.1. The framework's host dispatch per kernel
 *       (software profile {@code host_us_per_kernel}) is software, not hardware, and stays.</li>
 * </ul>
 */
public final class Perturbation {
    private Perturbation() {
    }

    /** {@code system} with +{@link Resource#STEP_FRACTION} of {@code r}; {@code p} is the plan's precision (FLOPS). */
    public static SystemSpec improve(Resource r, SystemSpec system, Precision p) {
        double up = 1 + Resource.STEP_FRACTION;
        Chip c = system.chip();
        return switch (r) {
            case FLOPS -> system.withChip(withPeakScaled(c, p, up));
            case HBM_BW -> system.withChip(c.withMemory(c.memoryType(), c.memoryBytes(),
                    c.memoryBytesPerSecond() * up));
            case HBM_CAPACITY -> system.withChip(c.withMemory(c.memoryType(), c.memoryBytes() * up,
                    c.memoryBytesPerSecond()));
            case SCALE_UP_BW -> system.withScaleUpBytesPerSecond(system.scaleUpBytesPerSecond() * up);
            case SCALE_OUT_BW -> system.withScaleOut(system.scaleOut().withGbitPerSecond(
                    system.scaleOut().bytesPerSecond() * 8 / 1e9 * up));
            case LATENCY -> latency(system, 1 / up);
            case LAUNCH -> system.withChip(c.withFamily(withLaunch(c.family(), c.family().kernelLaunchSeconds() / up)));
        };
    }

    /** The chip with the peak that format {@code p} runs at (its own, or the wider one it falls back to) scaled. */
    static Chip withPeakScaled(Chip c, Precision p, double factor) {
        double[] peaks = c.peakFlopsPerSecond().clone();
        int used = p.ordinal();
        while (used > 0 && !(peaks[used] > 0)) {
            used--; // Chip.peakFlopsPerSecond(p): the next wider format the chip has
        }
        peaks[used] *= factor;
        return new Chip(c.id(), c.name(), c.family(), c.memoryType(), c.memoryBytes(), c.memoryBytesPerSecond(), peaks,
                c.smCount(), c.clockHz(), c.l2Bytes(), c.l2BytesPerSecond(), c.smemBytesPerSm(), c.scaleUpLink(),
                c.scaleUpBytesPerSecond(), c.scaleUpDomain(), c.tdpWatts(), c.priceUsd(), c.source());
    }

    private static SystemSpec latency(SystemSpec s, double factor) {
        ScaleOutNetwork n = s.scaleOut();
        ScaleOutNetwork faster = new ScaleOutNetwork(n.id(), n.name(), n.bytesPerSecond(),
                n.stepLatencySeconds() * factor, n.efficiency(), n.joulesPerBit(), n.usdPerPort(), n.source());
        return new SystemSpec(s.chip(), s.gpuCount(), s.scaleUpDomain(), s.scaleUpBytesPerSecond(),
                s.scaleUpStepLatencySeconds() * factor, faster, s.scaleOutTopology());
    }

    private static ChipFamily withLaunch(ChipFamily f, double seconds) {
        return new ChipFamily(f.name(), f.gemmPeakFraction(), f.dramFraction(), f.l2Fraction(), seconds,
                f.tileOverheadCycles(), f.overlapExponent(), f.flashFraction(), f.gemmLowPrecisionFraction(),
                f.fusedAttentionFraction(), f.source(), f.fp4GemmFraction(), f.expPerClockPerSm(),
                f.attentionTileOverheadKeys());
    }
}
