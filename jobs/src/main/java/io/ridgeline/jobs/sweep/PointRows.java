package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.sweep.EvaluatedPoint;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.training.TrainingResult;
import io.ridgeline.schema.ColumnType;
import io.ridgeline.schema.ResultsSchema;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

/** Turns an evaluated point into a row of the points table, in results-schema column order. */
public final class PointRows {
    private static final int WIDTH = ResultsSchema.POINTS.columns().size();
    private static final Metric[] STORED;
    private static final int[] STORED_AT;
    private static final int FIRST_METRIC = ResultsSchema.POINTS.index("step_time_s");

    static {
        int n = 0;
        for (Metric m : Metric.values()) {
            if (m != Metric.GPU_COUNT) {
                n++;
            }
        }
        STORED = new Metric[n];
        STORED_AT = new int[n];
        int i = 0;
        for (Metric m : Metric.values()) {
            if (m == Metric.GPU_COUNT) {
                continue; // an INT column among the hardware columns
            }
            STORED[i] = m;
            STORED_AT[i] = ResultsSchema.POINTS.index(m.column());
            if (ResultsSchema.POINTS.column(m.column()).type() != ColumnType.DOUBLE) {
                throw new IllegalStateException("metric column is not DOUBLE: " + m.column());
            }
            i++;
        }
    }

    private PointRows() {
    }

    public static Row toRow(EvaluatedPoint p) {
        Object[] v = new Object[WIDTH];
        int i = 0;
        TrainingPlan plan = p.plan();
        TrainingResult r = p.result();
        v[i++] = p.pointIndex();
        v[i++] = p.planIndex();
        v[i++] = p.status().id();
        v[i++] = p.detail();
        v[i++] = p.model().name();
        v[i++] = p.workload().phase().id();
        v[i++] = p.workload().seqLen();
        v[i++] = p.workload().globalBatch();
        v[i++] = p.chip().id();
        v[i++] = p.gpuCount();
        v[i++] = p.scaleOut();
        v[i++] = p.scaleOutGbps();
        v[i++] = p.scaleUpDomain();
        if (plan != null) {
            v[i++] = plan.tp();
            v[i++] = plan.pp();
            v[i++] = plan.dp();
            v[i++] = plan.cp();
            v[i++] = plan.ep();
            v[i++] = plan.sp();
            v[i++] = plan.vpp();
            v[i++] = plan.zero();
            v[i++] = plan.microBatch();
            v[i++] = plan.recompute().id();
            v[i++] = plan.precision().id();
            v[i++] = plan.overlapGrad();
            v[i++] = plan.flashAttention();
        } else {
            i += 13; // no valid plan: plan columns stay null
        }
        v[i++] = r == null || !r.feasible() && r.infeasibility() != io.ridgeline.engine.training.Infeasibility
                .MEMORY_CAPACITY ? null : r.bottleneck().id();
        if (i != FIRST_METRIC) {
            throw new IllegalStateException("points row layout out of step with results-schema at column " + i);
        }
        double[] m = p.metrics();
        for (int k = 0; k < STORED.length; k++) {
            double x = m[STORED[k].ordinal()];
            v[STORED_AT[k]] = Double.isNaN(x) ? null : x;
        }
        return RowFactory.create(v);
    }

    /** The same row with the frontier group label appended (frontier table layout). */
    public static Row withGroup(Row points, String group) {
        Object[] v = new Object[WIDTH + 1];
        for (int i = 0; i < WIDTH; i++) {
            v[i] = points.get(i);
        }
        v[WIDTH] = group;
        return RowFactory.create(v);
    }
}
