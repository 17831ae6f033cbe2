package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.pareto.Skyline;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.evaluation.FrontierGroups;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.sweep.SweepSpec;
import org.apache.spark.sql.Row;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;

/**
 * What one Spark partition of a sweep does, whatever happens to its rows: evaluates chunks of grid indices with one
 * {@link Evaluator}, hands every point the output policy keeps to a {@link PointSink}, folds every ok point into
 * the partition's skyline per frontier group (a {@link Row} is built only for points a skyline keeps), and reports
 * skylines and counters to the accumulators once.
 */
final class PartitionEvaluator {
    /** Receives the points the policy keeps; the point object is reused after the call returns. */
    @FunctionalInterface
    interface PointSink {
        void accept(ResultRow point) throws IOException;
    }

    private final Evaluator evaluator;
    private final FrontierGroups groups;
    private final HashMap<Long, Skyline<Row>> skylines = new HashMap<>();
    private final double[] objective;
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
        this.evaluator = new Evaluator(spec);
        this.groups = new FrontierGroups(spec);
        this.objective = new double[spec.objectives().size()];
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
        long key = groups.key(p);
        Skyline<Row> s = skylines.get(key);
        if (s == null) {
            s = new Skyline<>(objective.length);
            skylines.put(key, s);
        }
        s.offer(objective, p.pointIndex(), p.planIndex(), () -> PointRows.toRow(p));
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
