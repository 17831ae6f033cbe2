package io.ridgeline.engine.sensitivity;

import io.ridgeline.engine.energy.ChipEnergy;
import io.ridgeline.engine.evaluation.PlanResult;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.training.TrainingResult;

/**
 * The energy columns by component ({@code energy_compute_per_token_j} ... {@code energy_static_per_token_j}) and
 * {@code power_of_tdp_fraction}, from the quantities the engines metered for the result (FLOPs, DRAM, scale-up and
 * scale-out bytes, time) and the coefficients they used ({@link ChipEnergy#split}); the components add up to
 * {@code energy_per_token_j}.
 */
final class EnergyColumns {
    private static final Metric[] COLUMNS = {Metric.ENERGY_COMPUTE_PER_TOKEN_J, Metric.ENERGY_DRAM_PER_TOKEN_J,
        Metric.ENERGY_SCALE_UP_PER_TOKEN_J, Metric.ENERGY_SCALE_OUT_PER_TOKEN_J, Metric.ENERGY_STATIC_PER_TOKEN_J};
    private final double[] joules = new double[ChipEnergy.COMPONENTS];

    /** Clears the columns. */
    static void clear(ResultRow row) {
        for (Metric m : COLUMNS) {
            row.set(m, Double.NaN);
        }
        row.set(Metric.POWER_OF_TDP_FRACTION, Double.NaN);
    }

    /** Fills the columns of a timed result; {@code p} is the plan's math precision. */
    void fill(PlanResult result, SystemSpec system, ChipEnergy energy, Precision p, ResultRow row) {
        double total;
        double tdp = system.chip().tdpWatts();
        if (result instanceof TrainingResult t) {
            int gpus = system.gpuCount();
            // TrainingStep: bytes per average device per step, FLOPs of the whole cluster
            energy.split(t.hardwareFlopsPerStep(), p, gpus * t.dramBytes(),
                    gpus * (t.networkBytes() - t.scaleOutBytes()), gpus * t.scaleOutBytes(), t.stepTimeSeconds(),
                    gpus, joules);
            total = t.energyJoules();
            row.set(Metric.POWER_OF_TDP_FRACTION, t.averagePowerWatts() / (tdp * gpus));
        } else if (result instanceof InferenceResult r) {
            int gpus = r.gpusPerReplica();
            // InferenceStep: bytes per GPU over the request window, FLOPs of the replica
            energy.split(r.flops(), p, gpus * r.dramBytes(), gpus * (r.networkBytes() - r.scaleOutBytes()),
                    gpus * r.scaleOutBytes(), r.e2eLatencySeconds(), gpus, joules);
            total = r.energyJoules();
            row.set(Metric.POWER_OF_TDP_FRACTION, r.averagePowerWatts() / tdp);
        } else {
            return;
        }
        double perToken = row.metric(Metric.ENERGY_PER_TOKEN_J) / total;
        for (int i = 0; i < COLUMNS.length; i++) {
            row.set(COLUMNS[i], joules[i] * perToken);
        }
    }
}
