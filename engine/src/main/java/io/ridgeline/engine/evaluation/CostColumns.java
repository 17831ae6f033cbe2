package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.cost.GpuHourCost;
import io.ridgeline.engine.sweep.Metric;

/**
 * The TCO columns of a row (MODEL.md sec. 8, {@code cost.TcoModel}): filled after the performance metrics, from the
 * point's $/GPU-hour (computed once per hardware point) and the row's cluster throughput. Pure arithmetic, no
 * allocation.
 *
 * <p>Every GPU of the cluster is charged, also those an inference plan leaves idle ({@code tp x pp x dp <
 * gpu_count}): they are bought and powered all the same.
 */
final class CostColumns {
    private CostColumns() {
    }

    /** The columns the hardware alone fixes: $/GPU-hour, cluster capex, fabric capex (NaN without a topology). */
    static void fillHardware(double[] out, GpuHourCost c, int gpuCount, double fabricUsd) {
        out[Metric.USD_PER_GPU_HOUR.ordinal()] = c.usdPerGpuHour();
        out[Metric.CLUSTER_CAPEX_USD.ordinal()] = c.capexUsdPerGpu() * gpuCount;
        out[Metric.FABRIC_CAPEX_USD.ordinal()] = fabricUsd;
        out[Metric.USD_PER_MILLION_TOKENS.ordinal()] = Double.NaN;
        out[Metric.RUN_COST_USD.ordinal()] = Double.NaN;
        out[Metric.WALL_ENERGY_PER_TOKEN_J.ordinal()] = Double.NaN;
    }

    /**
     * All TCO columns of an evaluated plan.
     *
     * @param tokensBudget tokens of one run (cost.tokens); 0 leaves run_cost_usd null
     */
    static void fill(double[] out, GpuHourCost c, int gpuCount, double fabricUsd, double tokensBudget) {
        fillHardware(out, c, gpuCount, fabricUsd);
        double tokensPerSecond = out[Metric.TOKENS_PER_S.ordinal()];
        if (!(tokensPerSecond > 0)) {
            return;
        }
        // TcoModel.usdPerMillionTokens: $/GPU-hour x GPUs / 3600 / (tokens/s) x 1e6
        double usdPerMillion = c.usdPerGpuHour() * gpuCount / 3600 / tokensPerSecond * 1e6;
        out[Metric.USD_PER_MILLION_TOKENS.ordinal()] = usdPerMillion;
        if (tokensBudget > 0) {
            // TcoModel.runUsd over the time the budget takes at this throughput
            out[Metric.RUN_COST_USD.ordinal()] = usdPerMillion * tokensBudget / 1e6;
        }
        // Wall-plug energy (server overhead, load, PUE, switches) per token, as the TCO model bills it.
        out[Metric.WALL_ENERGY_PER_TOKEN_J.ordinal()] = c.wallWattsPerGpu() * gpuCount / tokensPerSecond;
    }
}
