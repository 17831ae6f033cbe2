package io.ridgeline.engine.network;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.ScaleOutNetwork;

/**
 * A cluster: {@code gpuCount} identical chips in scale-up domains of {@code scaleUpDomain} GPUs (NVSwitch node, NVL72
 * rack) joined by a scale-out network. Parallel groups are placed with TP innermost (see {@code network.Placement}).
 *
 * @param scaleUpBytesPerSecond per GPU per direction inside a domain
 * @param scaleUpStepLatencySeconds one collective step inside a domain
 * @param scaleOutTopology  the fabric between domains, or null for a full-bisection network at the per-GPU rate
 */
public record SystemSpec(Chip chip, int gpuCount, int scaleUpDomain, double scaleUpBytesPerSecond,
                         double scaleUpStepLatencySeconds, ScaleOutNetwork scaleOut, Topology scaleOutTopology) {

    public SystemSpec {
        if (gpuCount < 1 || scaleUpDomain < 1 || !(scaleUpBytesPerSecond > 0) || scaleUpStepLatencySeconds < 0) {
            throw new IllegalArgumentException("invalid system: gpus=" + gpuCount + " domain=" + scaleUpDomain);
        }
    }

    /** A chip's default node (its datasheet scale-up link and domain) on the given scale-out network. */
    public static SystemSpec of(Chip chip, int gpuCount, ScaleOutNetwork scaleOut) {
        return new SystemSpec(chip, gpuCount, chip.scaleUpDomain(), chip.scaleUpBytesPerSecond(),
                HardwareCatalog.defaultScaleUpStepLatencySeconds(chip), scaleOut, null);
    }

    public SystemSpec withScaleUpDomain(int domain) {
        return new SystemSpec(chip, gpuCount, domain, scaleUpBytesPerSecond, scaleUpStepLatencySeconds, scaleOut,
                scaleOutTopology);
    }

    public SystemSpec withChip(Chip c) {
        return new SystemSpec(c, gpuCount, scaleUpDomain, scaleUpBytesPerSecond, scaleUpStepLatencySeconds, scaleOut,
                scaleOutTopology);
    }

    public SystemSpec withScaleUpBytesPerSecond(double b) {
        return new SystemSpec(chip, gpuCount, scaleUpDomain, b, scaleUpStepLatencySeconds, scaleOut,
                scaleOutTopology);
    }

    /** The same system on a scale-out fabric (fat-tree, rail-optimized, dragonfly, torus...). */
    public SystemSpec withScaleOutTopology(Topology t) {
        if (t != null && t.endpoints() < gpuCount) {
            throw new IllegalArgumentException("topology has " + t.endpoints() + " endpoints for " + gpuCount + " GPUs");
        }
        return new SystemSpec(chip, gpuCount, scaleUpDomain, scaleUpBytesPerSecond, scaleUpStepLatencySeconds, scaleOut,
                t);
    }

    public SystemSpec withScaleOut(ScaleOutNetwork n) {
        return new SystemSpec(chip, gpuCount, scaleUpDomain, scaleUpBytesPerSecond, scaleUpStepLatencySeconds, n,
                scaleOutTopology);
    }
}
