package io.ridgeline.engine.cost;

/**
 * Cost of one GPU-hour of useful work and its parts. USD, watts.
 *
 * @param capexUsdPerGpu        chip x server overhead + network share, per GPU
 * @param networkUsdPerGpu      interconnect capex per GPU (share or priced fabric)
 * @param capexUsdPerHour       capex / (years x 8766 h), per GPU
 * @param wallWattsPerGpu       TDP x server factor x load x PUE
 * @param energyUsdPerHour      wall kW x $/kWh, per GPU
 * @param usdPerGpuHour         (capex + energy per hour) / availability
 */
public record GpuHourCost(double capexUsdPerGpu, double networkUsdPerGpu, double capexUsdPerHour,
                          double wallWattsPerGpu, double energyUsdPerHour, double usdPerGpuHour) {
}
