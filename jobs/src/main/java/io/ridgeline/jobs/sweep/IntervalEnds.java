package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.pareto.Goal;
import io.ridgeline.engine.pareto.RobustDominance;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.schema.ResultsSchema;
import org.apache.spark.sql.Row;

import java.util.List;

/**
 * A sweep's objectives with the interval columns of each ({@code _lo}/{@code _hi}, where the metric has them): the
 * best and worst minimised vectors of a row that {@link RobustDominance} compares. An objective without an interval
 * (cost, memory, or a row whose output has no group) has both ends at its value: it is exact as far as the model
 * knows. Reused buffers; nothing allocates per row.
 */
final class IntervalEnds {
    private final Goal[] goals;
    private final int[] value;
    private final int[] low;
    private final int[] high;
    private final int[] valueColumn;
    private final int[] lowColumn;
    private final int[] highColumn;
    private final double[] lo;
    private final double[] hi;
    private final double[] other;

    IntervalEnds(List<SweepSpec.Objective> objectives) {
        int n = objectives.size();
        goals = new Goal[n];
        value = new int[n];
        low = new int[n];
        high = new int[n];
        valueColumn = new int[n];
        lowColumn = new int[n];
        highColumn = new int[n];
        lo = new double[n];
        hi = new double[n];
        other = new double[n];
        for (int i = 0; i < n; i++) {
            Metric m = objectives.get(i).metric();
            goals[i] = objectives.get(i).goal();
            value[i] = m.ordinal();
            low[i] = m.low() == null ? -1 : m.low().ordinal();
            high[i] = m.high() == null ? -1 : m.high().ordinal();
            valueColumn[i] = ResultsSchema.POINTS.index(m.column());
            lowColumn[i] = m.low() == null ? -1 : ResultsSchema.POINTS.index(m.low().column());
            highColumn[i] = m.high() == null ? -1 : ResultsSchema.POINTS.index(m.high().column());
        }
    }

    /** The best minimised vector of a row's metrics (indexed by Metric ordinal). */
    void best(double[] metrics, double[] out) {
        for (int i = 0; i < goals.length; i++) {
            double v = metrics[value[i]];
            lo[i] = end(low[i] < 0 ? Double.NaN : metrics[low[i]], v);
            hi[i] = end(high[i] < 0 ? Double.NaN : metrics[high[i]], v);
        }
        RobustDominance.ends(goals, lo, hi, out, other);
    }

    /** The worst minimised vector of a points/frontier row. */
    void worst(Row row, double[] out) {
        for (int i = 0; i < goals.length; i++) {
            double v = number(row, valueColumn[i]);
            lo[i] = end(lowColumn[i] < 0 ? Double.NaN : number(row, lowColumn[i]), v);
            hi[i] = end(highColumn[i] < 0 ? Double.NaN : number(row, highColumn[i]), v);
        }
        RobustDominance.ends(goals, lo, hi, other, out);
    }

    private static double end(double end, double value) {
        return Double.isNaN(end) ? value : end;
    }

    private static double number(Row row, int column) {
        return row.isNullAt(column) ? Double.NaN : ((Number) row.get(column)).doubleValue();
    }
}
