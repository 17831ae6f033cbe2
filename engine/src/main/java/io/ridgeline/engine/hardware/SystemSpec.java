package io.ridgeline.engine.hardware;

/**
 * A cluster: {@code gpuCount} identical chips in scale-up domains of {@code scaleUpDomain} GPUs (NVSwitch node, NVL72
 * rack) joined by a scale-out network. Parallel groups are placed with TP innermost (see {@code network.Placement}).
 *
 * @param scaleUpBytesPerSecond per GPU per direction inside a domain
 * @param scaleUpStepLatencySeconds one collective step inside a domain
 */
public record SystemSpec(Chip chip, int gpuCount, int scaleUpDomain, double scaleUpBytesPerSecond,
                         double scaleUpStepLatencySeconds, ScaleOutNetwork scaleOut) {

    public SystemSpec {
        if (gpuCount < 1 || scaleUpDomain < 1 || !(scaleUpBytesPerSecond > 0) || scaleUpStepLatencySeconds < 0) {
            throw new IllegalArgumentException("invalid system: gpus=" + gpuCount + " domain=" + scaleUpDomain);
        }
    }

    /** A chip's default node (its datasheet scale-up link and domain) on the given scale-out network. */
    public static SystemSpec of(Chip chip, int gpuCount, ScaleOutNetwork scaleOut) {
        return new SystemSpec(chip, gpuCount, chip.scaleUpDomain(), chip.scaleUpBytesPerSecond(),
                HardwareCatalog.defaultScaleUpStepLatencySeconds(chip), scaleOut);
    }

    public SystemSpec withScaleUpDomain(int domain) {
        return new SystemSpec(chip, gpuCount, domain, scaleUpBytesPerSecond, scaleUpStepLatencySeconds, scaleOut);
    }

    public SystemSpec withChip(Chip c) {
        return new SystemSpec(c, gpuCount, scaleUpDomain, scaleUpBytesPerSecond, scaleUpStepLatencySeconds, scaleOut);
    }

    public SystemSpec withGpuCount(int n) {
        return new SystemSpec(chip, n, scaleUpDomain, scaleUpBytesPerSecond, scaleUpStepLatencySeconds, scaleOut);
    }

    public SystemSpec withScaleUpBytesPerSecond(double b) {
        return new SystemSpec(chip, gpuCount, scaleUpDomain, b, scaleUpStepLatencySeconds, scaleOut);
    }

    public SystemSpec withScaleOut(ScaleOutNetwork n) {
        return new SystemSpec(chip, gpuCount, scaleUpDomain, scaleUpBytesPerSecond, scaleUpStepLatencySeconds, n);
    }
}
