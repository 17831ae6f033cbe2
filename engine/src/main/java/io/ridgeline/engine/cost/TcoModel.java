package io.ridgeline.engine.cost;

import io.ridgeline.engine.hardware.Chip;

/**
 * Total cost of ownership per MODEL.md sec. 8. Build once per sweep on the driver; the methods are pure arithmetic.
 */
public final class TcoModel {
    /** Mean hours per year (365.25 days). */
    public static final double HOURS_PER_YEAR = 8766;

    private final TcoParameters p;

    public TcoModel(TcoParameters parameters) {
        this.p = parameters;
    }

    public TcoParameters parameters() {
        return p;
    }

    /**
     * $/GPU-hour with the network as a share of cluster capex: network = servers x f / (1 - f), so that network /
     * (servers + network) = f (MODEL.md sec. 8, Epoch AI ~19%).
     */
    public GpuHourCost gpuHour(double chipPriceUsd, double tdpWatts) {
        double server = chipPriceUsd * p.serverOverheadFactor();
        double network = server * p.interconnectFraction() / (1 - p.interconnectFraction());
        return gpuHour(server, network, tdpWatts);
    }

    /** $/GPU-hour with a priced fabric (switches, optics, cables, NICs) spread over {@code gpuCount} GPUs. */
    public GpuHourCost gpuHour(double chipPriceUsd, double tdpWatts, NetworkCapex fabric, int gpuCount) {
        if (gpuCount < 1) {
            throw new IllegalArgumentException("gpuCount must be positive: " + gpuCount);
        }
        double server = chipPriceUsd * p.serverOverheadFactor();
        double network = fabric.totalUsd() / gpuCount;
        double switchWattsPerGpu = fabric.switchWatts() / gpuCount;
        GpuHourCost c = gpuHour(server, network, tdpWatts);
        // Switch boxes draw power too (at the same load and PUE as the servers).
        double extraWatts = switchWattsPerGpu * p.loadFraction() * p.pue();
        double extraEnergy = extraWatts / 1000 * p.usdPerKwh();
        return new GpuHourCost(c.capexUsdPerGpu(), c.networkUsdPerGpu(), c.capexUsdPerHour(),
                c.wallWattsPerGpu() + extraWatts, c.energyUsdPerHour() + extraEnergy,
                (c.capexUsdPerHour() + c.energyUsdPerHour() + extraEnergy) / p.availabilityFraction());
    }

    public GpuHourCost gpuHour(Chip chip) {
        return gpuHour(chip.priceUsd(), chip.tdpWatts());
    }

    private GpuHourCost gpuHour(double serverUsd, double networkUsd, double tdpWatts) {
        double capex = serverUsd + networkUsd;
        double capexPerHour = capex / (p.amortizationYears() * HOURS_PER_YEAR);
        double wallWatts = tdpWatts * p.serverPowerFactor() * p.loadFraction() * p.pue();
        double energyPerHour = wallWatts / 1000 * p.usdPerKwh();
        return new GpuHourCost(capex, networkUsd, capexPerHour, wallWatts, energyPerHour,
                (capexPerHour + energyPerHour) / p.availabilityFraction());
    }

    /** A run of {@code seconds} of useful time on {@code gpuCount} GPUs. */
    public static double runUsd(GpuHourCost c, int gpuCount, double seconds) {
        return c.usdPerGpuHour() * gpuCount * seconds / 3600;
    }

    /** Cost per million tokens at a cluster throughput of {@code tokensPerSecond}. */
    public static double usdPerMillionTokens(GpuHourCost c, int gpuCount, double tokensPerSecond) {
        if (!(tokensPerSecond > 0)) {
            throw new IllegalArgumentException("throughput must be positive: " + tokensPerSecond);
        }
        return c.usdPerGpuHour() * gpuCount / 3600 / tokensPerSecond * 1e6;
    }
}
