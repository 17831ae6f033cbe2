package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.inference.InferencePlan;
import io.ridgeline.engine.inference.InferenceResult;
import io.ridgeline.engine.parallelism.TrainingPlan;
import io.ridgeline.engine.sweep.DerivedDesign;
import io.ridgeline.engine.sweep.EvaluatedPoint;
import io.ridgeline.engine.sweep.SweepSpec;
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
    /** Metrics stored in INT columns (max_batch): written as Integer. */
    private static final boolean[] STORED_INT;
    private static final int TOPOLOGY = ResultsSchema.POINTS.index("topology");
    private static final int INPUT_TOKENS = ResultsSchema.POINTS.index("input_tokens");
    private static final int LOGIC_NODE = ResultsSchema.POINTS.index("logic_node");
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
        STORED_INT = new boolean[n];
        int i = 0;
        for (Metric m : Metric.values()) {
            if (m == Metric.GPU_COUNT) {
                continue; // an INT column among the hardware columns
            }
            STORED[i] = m;
            STORED_AT[i] = ResultsSchema.POINTS.index(m.column());
            ColumnType type = ResultsSchema.POINTS.column(m.column()).type();
            if (type != ColumnType.DOUBLE && type != ColumnType.INT) {
                throw new IllegalStateException("metric column is neither DOUBLE nor INT: " + m.column());
            }
            STORED_INT[i] = type == ColumnType.INT;
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
        InferencePlan ip = p.inferencePlan();
        InferenceResult ir = p.inferenceResult();
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
        } else if (ip != null) {
            v[i++] = ip.tp();
            v[i++] = ip.pp();
            v[i++] = ip.dp();
            i++; // cp: not an inference dimension
            v[i++] = ip.ep();
            i += 4; // sp, vpp, zero, micro_batch: training only
            i++; // recompute
            v[i++] = ip.computePrecision().id();
            i++; // overlap_grad
            v[i++] = ip.fusedAttention();
        } else {
            i += 13; // no valid plan: plan columns stay null
        }
        if (ir != null) {
            v[i++] = !ir.feasible() && ir.infeasibility() != io.ridgeline.engine.training.Infeasibility
                    .MEMORY_CAPACITY ? null : ir.bottleneck().id();
        } else {
            v[i++] = r == null || !r.feasible() && r.infeasibility() != io.ridgeline.engine.training.Infeasibility
                    .MEMORY_CAPACITY ? null : r.bottleneck().id();
        }
        if (i != FIRST_METRIC) {
            throw new IllegalStateException("points row layout out of step with results-schema at column " + i);
        }
        double[] m = p.metrics();
        for (int k = 0; k < STORED.length; k++) {
            double x = m[STORED[k].ordinal()];
            v[STORED_AT[k]] = Double.isNaN(x) ? null : STORED_INT[k] ? (Object) (int) x : (Object) x;
        }
        v[TOPOLOGY] = p.topology();
        SweepSpec.Workload w = p.workload();
        if (w.inference()) {
            int j = INPUT_TOKENS;
            v[j++] = w.inputTokens();
            v[j++] = w.outputTokens();
            v[j++] = w.concurrency();
            v[j++] = w.weightPrecision().id();
            v[j++] = w.activationPrecision().id();
            v[j++] = w.kvCachePrecision().id();
            v[j] = w.cudaGraphs();
        }
        DerivedDesign d = p.design();
        int j = LOGIC_NODE;
        if (d != null) {
            v[j++] = d.node();
            v[j++] = d.dram();
            v[j++] = d.stacks();
            v[j++] = d.dies();
            v[j++] = d.dieAreaMm2();
            v[j] = d.powerWatts();
        } else {
            v[j + 1] = p.chip().memoryType().toLowerCase(java.util.Locale.ROOT);
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
