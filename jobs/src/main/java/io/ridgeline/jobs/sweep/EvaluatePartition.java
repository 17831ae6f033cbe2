package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.pareto.Skyline;
import io.ridgeline.engine.sweep.EvaluatedPoint;
import io.ridgeline.engine.sweep.FrontierGroups;
import io.ridgeline.engine.sweep.PointStatus;
import io.ridgeline.engine.sweep.SweepEvaluator;
import io.ridgeline.engine.sweep.SweepSpec;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Row;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The executor side of a sweep: turns chunk numbers into grid index ranges, evaluates them with one
 * {@link SweepEvaluator} per partition, streams the rows the output policy keeps, and folds every ok point into the
 * partition's skyline per frontier group. The skylines and counters reach the driver through accumulators when the
 * partition is exhausted.
 */
final class EvaluatePartition implements FlatMapFunction<Iterator<Long>, Row> {
    private static final long serialVersionUID = 1L;
    /** Counter slots after the per-status counts. */
    static final int EVALUATIONS = PointStatus.values().length;
    static final int POINTS_ROWS = EVALUATIONS + 1;
    static final int WIDTH = POINTS_ROWS + 1;

    private final SweepSpec spec;
    private final long pointsPerChunk;
    private final FrontierAccumulator frontier;
    private final CountsAccumulator counts;

    EvaluatePartition(SweepSpec spec, long pointsPerChunk, FrontierAccumulator frontier, CountsAccumulator counts) {
        this.spec = spec;
        this.pointsPerChunk = pointsPerChunk;
        this.frontier = frontier;
        this.counts = counts;
    }

    @Override
    public Iterator<Row> call(Iterator<Long> chunks) {
        return new Rows(chunks);
    }

    private final class Rows implements Iterator<Row> {
        private final Iterator<Long> chunks;
        private final SweepEvaluator evaluator = new SweepEvaluator(spec);
        private final FrontierGroups groups = new FrontierGroups(spec);
        private final HashMap<Long, Skyline<Row>> skylines = new HashMap<>();
        private final double[] objective = new double[spec.objectives().size()];
        private final ArrayList<Row> buffer = new ArrayList<>();
        private final long size = evaluator.grid().size();
        private final SweepSpec.PointsPolicy policy = spec.points();
        private final SweepEvaluator.Sink sink = this::accept;
        private long rows;
        private int next;
        private boolean reported;

        Rows(Iterator<Long> chunks) {
            this.chunks = chunks;
        }

        private void accept(EvaluatedPoint p) {
            PointStatus status = p.status();
            Row row = null;
            if (policy == SweepSpec.PointsPolicy.ALL || policy == SweepSpec.PointsPolicy.FEASIBLE
                    && (status == PointStatus.OK || status == PointStatus.CONSTRAINT)) {
                row = PointRows.toRow(p);
                buffer.add(row);
                rows++;
            }
            if (status != PointStatus.OK) {
                return;
            }
            evaluator.objectiveVector(p.metrics(), objective);
            long key = groups.key(p);
            Skyline<Row> s = skylines.get(key);
            if (s == null) {
                s = new Skyline<>(objective.length);
                skylines.put(key, s);
            }
            Row kept = row;
            s.offer(objective, p.pointIndex(), p.planIndex(), () -> kept != null ? kept : PointRows.toRow(p));
        }

        @Override
        public boolean hasNext() {
            while (next >= buffer.size()) {
                buffer.clear();
                next = 0;
                if (!chunks.hasNext()) {
                    report();
                    return false;
                }
                long chunk = chunks.next();
                long start = chunk * pointsPerChunk;
                long end = Math.min(size, start + pointsPerChunk);
                for (long i = start; i < end; i++) {
                    evaluator.evaluate(i, sink);
                }
            }
            return true;
        }

        @Override
        public Row next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            return buffer.get(next++);
        }

        private void report() {
            if (reported) {
                return;
            }
            reported = true;
            frontier.add(skylines);
            long[] c = new long[WIDTH];
            System.arraycopy(evaluator.statusCounts(), 0, c, 0, EVALUATIONS);
            c[EVALUATIONS] = evaluator.evaluations();
            c[POINTS_ROWS] = rows;
            counts.add(c);
        }
    }
}
