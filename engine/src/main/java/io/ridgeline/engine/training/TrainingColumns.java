package io.ridgeline.engine.training;

import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.sweep.Metric;

import static io.ridgeline.engine.sweep.Metric.ACTIVATION_BYTES;
import static io.ridgeline.engine.sweep.Metric.GRADIENT_BYTES;
import static io.ridgeline.engine.sweep.Metric.HBM_BYTES;
import static io.ridgeline.engine.sweep.Metric.HBM_CAPACITY_BYTES;
import static io.ridgeline.engine.sweep.Metric.OPTIMIZER_BYTES;
import static io.ridgeline.engine.sweep.Metric.RESERVE_BYTES;
import static io.ridgeline.engine.sweep.Metric.WEIGHT_BYTES;

/** How a training plan and its result read as result columns (metrics row and plan cells). */
public final class TrainingColumns {
    private TrainingColumns() {
    }

    /**
     * The metrics of one evaluated plan; inference-only columns stay NaN (null).
     *
     * @param tokensPerStep global batch x sequence length
     */
    public static void fill(double[] out, TrainingResult r, Chip chip, int gpuCount, double tokensPerStep) {
        // throughput
        out[Metric.STEP_TIME_S.ordinal()] = r.stepTimeSeconds();
        out[Metric.TOKENS_PER_S.ordinal()] = r.tokensPerSecond();
        out[Metric.TOKENS_PER_S_PER_GPU.ordinal()] = r.tokensPerSecond() / gpuCount;
        out[Metric.MFU_FRACTION.ordinal()] = r.mfuFraction();
        out[Metric.HFU_FRACTION.ordinal()] = r.hfuFraction();
        // where the step's time goes: kernels, then communication by parallel dimension, then the rest
        out[Metric.COMPUTE_S.ordinal()] = r.computeSeconds();
        out[Metric.MEMORY_BOUND_S.ordinal()] = r.memoryBoundSeconds();
        out[Metric.TP_COMM_S.ordinal()] = r.tpCommSeconds();
        out[Metric.CP_COMM_S.ordinal()] = r.cpCommSeconds();
        out[Metric.EP_COMM_S.ordinal()] = r.epCommSeconds();
        out[Metric.PP_COMM_S.ordinal()] = r.ppCommSeconds();
        out[Metric.DP_COMM_S.ordinal()] = r.dpCommSeconds();
        out[Metric.BUBBLE_S.ordinal()] = r.bubbleSeconds();
        out[Metric.OPTIMIZER_S.ordinal()] = r.optimizerSeconds();
        out[Metric.OVERHEAD_S.ordinal()] = r.overheadSeconds();
        fillMemory(out, r);
        out[HBM_CAPACITY_BYTES.ordinal()] = r.memoryCapacityBytes(); // NaN too: no earlier plan's value may survive
        out[Metric.ENERGY_PER_STEP_J.ordinal()] = r.energyJoules();
        out[Metric.ENERGY_PER_TOKEN_J.ordinal()] = r.energyJoules() / tokensPerStep;
        out[Metric.CLUSTER_POWER_W.ordinal()] = r.averagePowerWatts();
        Metric.fillCluster(out, chip, gpuCount);
        Metric.clearInferenceOnly(out);
    }

    /**
     * The memory columns; also of an infeasible plan, whose memory numbers are real (they say by how much it misses)
     * while its times are not.
     */
    public static void fillMemory(double[] out, TrainingResult r) {
        out[WEIGHT_BYTES.ordinal()] = r.weightBytes();
        out[GRADIENT_BYTES.ordinal()] = r.gradientBytes();
        out[OPTIMIZER_BYTES.ordinal()] = r.optimizerBytes();
        out[ACTIVATION_BYTES.ordinal()] = r.activationBytes();
        out[RESERVE_BYTES.ordinal()] = r.reserveBytes();
        out[HBM_BYTES.ordinal()] = r.totalMemoryBytes();
        if (!Double.isNaN(r.memoryCapacityBytes())) {
            out[HBM_CAPACITY_BYTES.ordinal()] = r.memoryCapacityBytes();
        }
    }

    /** The plan cells of a training row. */
    public static void write(TrainingPlan plan, ResultRow row) {
        row.plan(plan).set(ResultRow.Count.TP, plan.tp()).set(ResultRow.Count.PP, plan.pp())
                .set(ResultRow.Count.DP, plan.dp())
                .set(ResultRow.Count.CP, plan.cp()).set(ResultRow.Count.EP, plan.ep())
                .set(ResultRow.Flag.SP, plan.sp()).set(ResultRow.Count.VPP, plan.vpp())
                .set(ResultRow.Count.ZERO, plan.zero()).set(ResultRow.Count.MICRO_BATCH, plan.microBatch())
                .set(ResultRow.Text.RECOMPUTE, plan.recompute().id())
                .set(ResultRow.Text.PRECISION, plan.precision().id())
                .set(ResultRow.Flag.OVERLAP_GRAD, plan.overlapGrad())
                .set(ResultRow.Flag.FLASH_ATTENTION, plan.flashAttention());
    }
}
