package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The estimate predicts what evaluating the grid in order costs. The old one timed points spread over the grid, each
 * on a cold system, and came out 20-175x high per point on this grid (scripts/bench's shape), JIT warm or not
 * (docs/PERFORMANCE.md sec. 4).
 */
class SweepEstimateTest {
    /** 24,000 explicit points: batches x chips x scale-out rates x cluster sizes x plans, one evaluation each. */
    static final String GRID = String.join("\n", "name: est", "models: [gpt3-175b]",
            "phases: [{phase: training, seq_len: [2048], global_batch: [128, 256, 384, 512, 640, 768, 896, 1024, "
                    + "1152, 1280]}]",
            "hardware: {presets: [a100-80g, h100-sxm, b200]}",
            "network: {scale_out: [default], scale_out_gbit_s: [50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550, "
                    + "600, 650, 700, 750, 800, 850, 900, 950, 1000]}",
            "cluster: {gpu_count: [512, 1024, 2048, 4096]}",
            "parallelism: {mode: explicit, plans: [{tp: 8, pp: 8}, {tp: 8, pp: 8, micro_batch: 2}, "
                    + "{tp: 8, pp: 8, recompute: full}, {tp: 8, pp: 16}, {tp: 8, pp: 16, micro_batch: 2}, "
                    + "{tp: 8, pp: 16, sp: false}, {tp: 4, pp: 16}, {tp: 4, pp: 32}, {tp: 8, pp: 12, vpp: 2}, "
                    + "{tp: 8, pp: 32, zero: 1}]}",
            "objectives: [{max: tokens_per_s}, {min: energy_per_token_j}]", "output: {points: none}", "");

    @Test
    void theEstimateIsWithinAFactorOfThreeOfEvaluatingTheGridInOrder() {
        SweepSpec spec = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled()).parse("est.yaml", GRID);
        inOrder(spec); // JIT warm for both sides: this compares the sampling, not the compiler's progress
        // Estimate and measurement alternate three times and the medians are compared: on a 2-vCPU box another
        // process on the sibling hyperthread slows whichever side it meets (one pairing was 3.4x apart during a
        // parallel Maven build, within 3x on an idle box); the claim is about the estimator, not about that noise.
        double[] estimated = new double[ROUNDS];
        double[] measured = new double[ROUNDS];
        SweepEstimate est = null;
        for (int r = 0; r < ROUNDS; r++) {
            est = SweepEstimate.of(spec, 1, 1.0);
            estimated[r] = est.seconds();
            measured[r] = inOrder(spec);
        }
        assertEquals(24_000, est.gridPoints());
        assertEquals(24_000, est.evaluations());
        assertEquals(0, est.writeSeconds(), "points: none writes nothing");
        double ratio = median(estimated) / median(measured);
        assertTrue(ratio > 1 / 3.0 && ratio < 3, String.format("estimated %s s, measured %s s (medians' ratio %.2f)",
                java.util.Arrays.toString(estimated), java.util.Arrays.toString(measured), ratio));
    }

    private static final int ROUNDS = 3;

    private static double median(double[] values) {
        double[] v = values.clone();
        java.util.Arrays.sort(v);
        return v[v.length / 2];
    }

    /**
     * What one executor core does: one evaluator, consecutive points; CPU seconds for the whole grid (the estimate
     * counts a core's time, not other processes' turns on a shared machine).
     */
    private static double inOrder(SweepSpec spec) {
        Evaluator ev = new Evaluator(spec);
        Evaluator.Sink ignore = p -> { };
        long t = SweepEstimate.cpuNanos();
        for (long i = 0; i < spec.grid().size(); i++) {
            ev.evaluate(i, ignore);
        }
        return (SweepEstimate.cpuNanos() - t) / 1e9;
    }

    @Test
    void writtenRowsAddTheirParquetCostPerCore() {
        SweepSpec spec = new SweepLoader(ModelCatalog.bundled(), HardwareCatalog.bundled()).parse("est.yaml",
                GRID.replace("points: none", "points: all"));
        SweepEstimate est = SweepEstimate.of(spec, 2, 0.2);
        assertEquals(24_000 * SweepEstimate.WRITE_SECONDS_PER_ROW_CORE / 2, est.writeSeconds(), 1e-12);
        assertEquals(24_000 * est.secondsPerPoint() / 2 + est.writeSeconds(), est.seconds(), 1e-9);
    }
}
