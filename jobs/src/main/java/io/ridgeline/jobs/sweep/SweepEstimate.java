package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.calibration.SweepCalibration;
import io.ridgeline.engine.sweep.Grid;
import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.sweep.SweepSpec;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * What the driver knows before Spark starts: grid size, the exact plan count, and the evaluate-and-write time, from
 * timing the engine on this thread the way executors run it.
 *
 * <p>Executors evaluate long runs of consecutive grid points with one evaluator, whose caches (systems, plan lists,
 * GEMM shapes) and the JIT are warm after the first few. An earlier estimate timed 256 points spread evenly over the
 * grid: every sample landed on a new system, cold (20-175x per point), and the 24 M-point bench sweep came out at
 * 2.5-5.2 h for a Spark job of 14-27 s on a quieter box (docs/PERFORMANCE.md sec. 4). Now a warm-up run from point 0
 * is discarded, then blocks of consecutive points at evenly spaced starts are evaluated and evaluated again, and the
 * second pass is timed (the JIT is still compiling during the first on a loaded machine), on the thread's CPU clock.
 * A grid the warm-up finishes is timed whole, cold, which is what it costs.
 *
 * @param secondsPerPoint engine CPU time per grid point on one core, warm
 * @param writeSeconds    estimated Parquet time of the points rows over all cores
 * @param seconds         evaluate plus write time over {@code cores} when the run has them to itself (Spark start
 *                        and commit not included)
 * @param sampledPoints   points the estimate evaluated
 */
public record SweepEstimate(long gridPoints, long evaluations, double secondsPerPoint, int cores, double writeSeconds,
                            double seconds, long sampledPoints) {
    /**
     * Writing one points row costs ~6 us of one core: the 12 M-point all-points bench sweep wrote 304-340 k rows/s on
     * 2 cores (docs/PERFORMANCE.md sec. 3), 2 / 320 k = 6.25 us per row-core, less ~0.5 us of evaluation.
     */
    static final double WRITE_SECONDS_PER_ROW_CORE = 6e-6;
    /** Timed blocks of consecutive points after the warm-up. */
    static final int BLOCKS = 16;
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    /**
     * Counts the plans the sweep will evaluate (exactly) and times it within about {@code budgetSeconds}, so huge or
     * slow grids are refused before any Spark work. Also surfaces engine bugs before a cluster is involved.
     */
    public static SweepEstimate of(SweepSpec spec, int cores, double budgetSeconds) {
        Evaluator ev = SweepCalibration.evaluator(spec);
        Grid grid = ev.grid();
        long evaluations = countEvaluations(ev, grid);
        long n = grid.size();
        Evaluator.Sink ignore = p -> { };
        long budgetNanos = (long) (budgetSeconds * 1e9);
        long wallCap = System.nanoTime() + 4 * budgetNanos;
        // 1. Warm-up from point 0 for a quarter of the budget: JIT and the evaluator's caches, as in an executor.
        long start = cpuNanos();
        long warm = 0;
        while (warm < n && cpuNanos() - start < budgetNanos / 4 && System.nanoTime() < wallCap) {
            ev.evaluate(warm++, ignore);
        }
        double perPoint;
        long sampled = warm;
        if (warm == n) {
            perPoint = (cpuNanos() - start) / 1e9 / n;
        } else {
            // 2. Blocks of consecutive points at evenly spaced starts, each with an equal share of half of what is
            // left; 3. the same blocks again, timed: the JIT is still compiling during the first pass, where
            // executors spend nearly all their time compiled.
            long blockNanos = Math.max(1, (budgetNanos - (cpuNanos() - start)) / 2 / BLOCKS);
            long[] first = new long[BLOCKS];
            long[] count = new long[BLOCKS];
            for (int b = 0; b < BLOCKS; b++) {
                first[b] = warm + (n - warm) * b / BLOCKS;
                long end = warm + (n - warm) * (b + 1) / BLOCKS;
                long t = cpuNanos();
                long i = first[b];
                do {
                    ev.evaluate(i++, ignore);
                } while (i < end && cpuNanos() - t < blockNanos && System.nanoTime() < wallCap);
                count[b] = i - first[b];
            }
            long timedNanos = 0;
            long timedPoints = 0;
            for (int b = 0; b < BLOCKS; b++) {
                long t = cpuNanos();
                for (long i = first[b]; i < first[b] + count[b]; i++) {
                    ev.evaluate(i, ignore);
                }
                timedNanos += cpuNanos() - t;
                timedPoints += count[b];
            }
            perPoint = timedNanos / 1e9 / timedPoints;
            sampled += timedPoints;
        }
        long rows = spec.points() == SweepSpec.PointsPolicy.NONE ? 0 : n;
        int c = Math.max(cores, 1);
        double write = rows * WRITE_SECONDS_PER_ROW_CORE / c;
        return new SweepEstimate(n, evaluations, perPoint, c, write, n * perPoint / c + write, sampled);
    }

    /**
     * CPU time of this thread: what a point costs a core, whatever else the machine runs (on a shared box, wall time
     * counted other processes' turns and the estimate swung 2-6x with the load). Wall time where unsupported.
     */
    static long cpuNanos() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }

    /** Plans over the whole grid: per (model, workload, GPU count) plan list, times every hardware combination. */
    static long countEvaluations(Evaluator ev, Grid grid) {
        long hardwarePerCombo = grid.radix(Grid.CHIP) * grid.radix(Grid.SCALE_OUT) * grid.radix(Grid.SCALE_OUT_RATE)
                * grid.radix(Grid.SCALE_UP_DOMAIN) * grid.radix(Grid.TOPOLOGY) * grid.radix(Grid.PLAN);
        long evaluations = 0;
        int[] c = new int[grid.axes()];
        for (int m = 0; m < grid.radix(Grid.MODEL); m++) {
            for (int w = 0; w < grid.radix(Grid.WORKLOAD); w++) {
                for (int g = 0; g < grid.radix(Grid.GPU_COUNT); g++) {
                    c[Grid.MODEL] = m;
                    c[Grid.WORKLOAD] = w;
                    c[Grid.GPU_COUNT] = g;
                    evaluations += (long) ev.plansAt(grid.encode(c)) * hardwarePerCombo;
                }
            }
        }
        return evaluations;
    }
}
