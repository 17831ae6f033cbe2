package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.sweep.SweepSpec;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.sql.Row;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The executor side of a sweep: turns chunk numbers into grid index ranges, evaluates them with one
 * {@link Evaluator} per partition, streams the rows the output policy keeps, and folds every ok point into the
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
        private final PartitionEvaluator partition = new PartitionEvaluator(spec, pointsPerChunk, frontier, counts);
        private final ArrayList<Row> buffer = new ArrayList<>();
        private final PartitionEvaluator.PointSink toBuffer = p -> buffer.add(PointRows.toRow(p));
        private int next;

        Rows(Iterator<Long> chunks) {
            this.chunks = chunks;
        }

        @Override
        public boolean hasNext() {
            while (next >= buffer.size()) {
                buffer.clear();
                next = 0;
                if (!chunks.hasNext()) {
                    partition.report();
                    return false;
                }
                try {
                    partition.evaluateChunk(chunks.next(), toBuffer);
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
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
    }
}
