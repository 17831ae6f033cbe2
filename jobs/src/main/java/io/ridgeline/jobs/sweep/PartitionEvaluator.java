package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.calibration.SweepCalibration;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.evaluation.FrontierGroups;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.sweep.SweepSpec;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What one Spark partition of a sweep does, whatever happens to its rows: evaluates chunks of grid indices with one
 * {@link Evaluator}, hands every point the output policy keeps to a {@link PointSink}, folds every ok point into
 * the partition's skylines per frontier group ({@link FrontierFold}: the frontier, and the best vectors the robust
 * flag needs; a row is built only for points a skyline keeps), and reports skylines and counters to the accumulators
 * once.
 */
final class PartitionEvaluator {
    /** Receives the points the policy keeps; the point object is reused after the call returns. */
    @FunctionalInterface
    interface PointSink {
        void accept(ResultRow point) throws IOException;
    }

    private final Evaluator evaluator;
    private final FrontierGroups groups;
    private final FrontierFold skylines = new FrontierFold();
    private final IntervalEnds ends;
    private final double[] objective;
    private final double[] best;
    private final long size;
    private final long pointsPerChunk;
    private final SweepSpec.PointsPolicy policy;
    private final FrontierAccumulator frontier;
    private final CountsAccumulator counts;
    private final Evaluator.Sink sink = this::accept;
    private PointSink out;
    private long rows;
    private boolean reported;

    PartitionEvaluator(SweepSpec spec, long pointsPerChunk, FrontierAccumulator frontier, CountsAccumulator counts) {
        this.evaluator = SweepCalibration.evaluator(spec);
        this.groups = new FrontierGroups(spec);
        this.objective = new double[spec.objectives().size()];
        this.best = new double[objective.length];
        this.ends = new IntervalEnds(spec.objectives());
        this.size = evaluator.grid().size();
        this.pointsPerChunk = pointsPerChunk;
        this.policy = spec.points();
        this.frontier = frontier;
        this.counts = counts;
    }

    /** Evaluates every grid point of one chunk, handing the kept ones to {@code out}. */
    void evaluateChunk(long chunk, PointSink out) throws IOException {
        this.out = out;
        long start = chunk * pointsPerChunk;
        long end = Math.min(size, start + pointsPerChunk);
        try {
            for (long i = start; i < end; i++) {
                evaluator.evaluate(i, sink);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } finally {
            this.out = null;
        }
    }

    private void accept(ResultRow p) {
        PointStatus status = p.status();
        if (policy == SweepSpec.PointsPolicy.ALL || policy == SweepSpec.PointsPolicy.FEASIBLE
                && (status == PointStatus.OK || status == PointStatus.CONSTRAINT)) {
            try {
                out.accept(p);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            rows++;
        }
        if (status != PointStatus.OK) {
            return;
        }
        evaluator.objectives().vector(p.metrics(), objective);
        ends.best(p.metrics(), best);
        skylines.offer(p, groups.key(p), objective, best);
    }

    /** Sends the skylines and counters to the driver; later calls do nothing. */
    void report() {
        if (reported) {
            return;
        }
        reported = true;
        frontier.add(skylines);
        long[] c = new long[EvaluatePartition.WIDTH];
        System.arraycopy(evaluator.statusCounts(), 0, c, 0, EvaluatePartition.EVALUATIONS);
        c[EvaluatePartition.EVALUATIONS] = evaluator.evaluations();
        c[EvaluatePartition.POINTS_ROWS] = rows;
        counts.add(c);
    }
}
