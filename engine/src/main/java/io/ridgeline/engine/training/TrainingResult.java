package io.ridgeline.engine.training;

import io.ridgeline.engine.evaluation.Bottleneck;
import io.ridgeline.engine.evaluation.Infeasibility;
import io.ridgeline.engine.evaluation.PlanResult;

import java.util.Locale;

/**
 * One evaluated training point. Times are per optimizer step, in seconds; bytes are per device (the most loaded
 * pipeline stage). Breakdown times are on the critical path: exposed, not summed over overlapped streams, so they add
 * up to {@code stepTimeSeconds}; {@code overheadSeconds} is host launch time the GPU could not hide.
 *
 * <p>Energy (MODEL.md sec. 8, {@code energy.ChipEnergy}): {@code energyJoules} is the accelerators' energy per step over
 * all GPUs, bottom-up (FLOPs, DRAM and wire bytes, static power), capped at TDP x step time per GPU;
 * {@code averagePowerWatts} is that energy over the step time (whole cluster). {@code dramBytes},
 * {@code networkBytes} (scale-up + scale-out, sent) and {@code scaleOutBytes} are per average device per step.
 * {@code recomputedLayerFraction} is the share of each stage's layers recomputed fully (1 for full recomputation; for
 * an AUTO plan, what the least recomputation that fits chose).
 */
public record TrainingResult(
        Infeasibility infeasibility, String detail,
        double stepTimeSeconds, double tokensPerSecond, double modelFlopsPerStep, double hardwareFlopsPerStep,
        double mfuFraction, double hfuFraction,
        double computeSeconds, double memoryBoundSeconds, double tpCommSeconds, double cpCommSeconds,
        double epCommSeconds, double ppCommSeconds, double dpCommSeconds, double bubbleSeconds,
        double optimizerSeconds,
        double weightBytes, double gradientBytes, double optimizerBytes, double activationBytes, double reserveBytes,
        double memoryCapacityBytes,
        Bottleneck bottleneck, double energyJoules, double averagePowerWatts, double overheadSeconds,
        double dramBytes, double networkBytes, double scaleOutBytes, double recomputedLayerFraction)
        implements PlanResult {

    /**
     * Why the point is infeasible, as text ("" when feasible). For memory overflow the message is built here, on
     * demand, from the numbers: a plan search rejects most plans for memory and never reads the text, so formatting
     * it per evaluation would dominate the hot loop.
     */
    @Override
    public String detail() {
        if (detail == null && infeasibility == Infeasibility.MEMORY_CAPACITY) {
            return memoryDetail(totalMemoryBytes(), memoryCapacityBytes);
        }
        return detail;
    }

    /** "needs N GiB per device but has C GiB", with two decimals where one would print the same number twice. */
    static String memoryDetail(double needBytes, double capacityBytes) {
        double needGib = needBytes / (1L << 30);
        double hasGib = capacityBytes / (1L << 30);
        String f = String.format(Locale.ROOT, "%.1f", needGib).equals(String.format(Locale.ROOT, "%.1f", hasGib))
                ? "needs %.2f GiB per device but has %.2f GiB" : "needs %.1f GiB per device but has %.1f GiB";
        return String.format(Locale.ROOT, f, needGib, hasGib);
    }


    /** Everything resident on the most loaded device. */
    @Override
    public double totalMemoryBytes() {
        return weightBytes + gradientBytes + optimizerBytes + activationBytes + reserveBytes;
    }

    /** A point that cannot be evaluated at all (plan shape or GPU count): no times, only the reason. */
    static TrainingResult invalid(Infeasibility why, String detail) {
        double nan = Double.NaN;
        return new TrainingResult(why, detail, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan, nan,
                nan, nan, nan, nan, nan, nan, nan, Bottleneck.OVERHEAD, nan, nan, nan, nan, nan, nan, nan);
    }
}
