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

    /** Columns 1-27 of the points table, which {@link #emit} addresses by position. */
    private static final String[] LEADING = {"point_index", "plan_index", "status", "detail", "model", "phase",
        "seq_len", "global_batch", "chip", "gpu_count", "scale_out", "scale_out_gbps", "scale_up_domain", "tp", "pp",
        "dp", "cp", "ep", "sp", "vpp", "zero", "micro_batch", "recompute", "precision", "overlap_grad",
        "flash_attention", "bottleneck"};

    static {
        for (int c = 0; c < LEADING.length; c++) {
            if (ResultsSchema.POINTS.index(LEADING[c]) != c) {
                throw new IllegalStateException("points row layout out of step with results-schema: " + LEADING[c]);
            }
        }
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
            v[i++] = !ir.feasible() && ir.infeasibility() != io.ridgeline.engine.evaluation.Infeasibility
                    .MEMORY_CAPACITY ? null : ir.bottleneck().id();
        } else {
            v[i++] = r == null || !r.feasible() && r.infeasibility() != io.ridgeline.engine.evaluation.Infeasibility
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
            v[j + 1] = dramTypeId(p.chip().memoryType());
        }
        return RowFactory.create(v);
    }

    /**
     * Receives the non-null values of one points row by column index (results-schema order); a null value is simply
     * not delivered. The typed twin of {@link #toRow}: no boxing, no {@code Object[]}.
     */
    interface Fields {
        void longAt(int column, long value);

        void intAt(int column, int value);

        void doubleAt(int column, double value);

        /** Never called with null. */
        void stringAt(int column, String value);

        void booleanAt(int column, boolean value);
    }

    /**
     * Delivers the values {@link #toRow} would put in the row, column by column, skipping nulls (NaN metrics,
     * columns that do not apply). Kept value for value in step with {@code toRow}: PointRowsTest compares the two
     * over training, inference and derived-chip sweeps, and SweepJobTest compares whole tables.
     */
    static void emit(EvaluatedPoint p, Fields out) {
        TrainingPlan plan = p.plan();
        TrainingResult r = p.result();
        InferencePlan ip = p.inferencePlan();
        InferenceResult ir = p.inferenceResult();
        out.longAt(0, p.pointIndex());
        out.intAt(1, p.planIndex());
        out.stringAt(2, p.status().id());
        string(out, 3, p.detail());
        string(out, 4, p.model().name());
        string(out, 5, p.workload().phase().id());
        out.intAt(6, p.workload().seqLen());
        out.intAt(7, p.workload().globalBatch());
        string(out, 8, p.chip().id());
        out.intAt(9, p.gpuCount());
        string(out, 10, p.scaleOut());
        out.doubleAt(11, p.scaleOutGbps());
        out.intAt(12, p.scaleUpDomain());
        if (plan != null) {
            out.intAt(13, plan.tp());
            out.intAt(14, plan.pp());
            out.intAt(15, plan.dp());
            out.intAt(16, plan.cp());
            out.intAt(17, plan.ep());
            out.booleanAt(18, plan.sp());
            out.intAt(19, plan.vpp());
            out.intAt(20, plan.zero());
            out.intAt(21, plan.microBatch());
            string(out, 22, plan.recompute().id());
            string(out, 23, plan.precision().id());
            out.booleanAt(24, plan.overlapGrad());
            out.booleanAt(25, plan.flashAttention());
        } else if (ip != null) {
            out.intAt(13, ip.tp());
            out.intAt(14, ip.pp());
            out.intAt(15, ip.dp());
            out.intAt(17, ip.ep());
            string(out, 23, ip.computePrecision().id());
            out.booleanAt(25, ip.fusedAttention());
        }
        if (ir != null) {
            if (ir.feasible() || ir.infeasibility() == io.ridgeline.engine.evaluation.Infeasibility.MEMORY_CAPACITY) {
                string(out, 26, ir.bottleneck().id());
            }
        } else if (r != null && (r.feasible()
                || r.infeasibility() == io.ridgeline.engine.evaluation.Infeasibility.MEMORY_CAPACITY)) {
            string(out, 26, r.bottleneck().id());
        }
        double[] m = p.metrics();
        for (int k = 0; k < STORED.length; k++) {
            double x = m[STORED[k].ordinal()];
            if (Double.isNaN(x)) {
                continue;
            }
            if (STORED_INT[k]) {
                out.intAt(STORED_AT[k], (int) x);
            } else {
                out.doubleAt(STORED_AT[k], x);
            }
        }
        string(out, TOPOLOGY, p.topology());
        SweepSpec.Workload w = p.workload();
        if (w.inference()) {
            int j = INPUT_TOKENS;
            out.intAt(j++, w.inputTokens());
            out.intAt(j++, w.outputTokens());
            out.intAt(j++, w.concurrency());
            string(out, j++, w.weightPrecision().id());
            string(out, j++, w.activationPrecision().id());
            string(out, j++, w.kvCachePrecision().id());
            out.booleanAt(j, w.cudaGraphs());
        }
        DerivedDesign d = p.design();
        int j = LOGIC_NODE;
        if (d != null) {
            string(out, j++, d.node());
            string(out, j++, d.dram());
            out.intAt(j++, d.stacks());
            out.intAt(j++, d.dies());
            out.doubleAt(j++, d.dieAreaMm2());
            out.doubleAt(j, d.powerWatts());
        } else {
            string(out, j + 1, dramTypeId(p.chip().memoryType()));
        }
    }

    private static void string(Fields out, int column, String value) {
        if (value != null) {
            out.stringAt(column, value);
        }
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

    /** Catalogue memory types as dram_type ids ("HBM3e" -> "hbm3e"), lower-cased once per type, not once per row. */
    private static final java.util.concurrent.ConcurrentHashMap<String, String> DRAM_TYPE_IDS =
            new java.util.concurrent.ConcurrentHashMap<>();

    private static String dramTypeId(String memoryType) {
        return DRAM_TYPE_IDS.computeIfAbsent(memoryType, t -> t.toLowerCase(java.util.Locale.ROOT));
    }
}
