package io.ridgeline.engine.evaluation;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.sweep.Grid;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelSpec;

import java.util.Arrays;
import java.util.Locale;

/**
 * One row of the points table, whatever the phase: the point's identity and settings, its plan, its status and its
 * metrics, each cell named by the results column it fills (enums below, {@link Metric}). Writers iterate the columns
 * (a null cell is simply absent), so they know neither phases nor column positions.
 *
 * <p>The {@link Evaluator} reuses one row per call: a sink copies what it keeps ({@link #copy()}) before returning.
 * Cells are set in place, so filling a row allocates nothing.
 */
public final class ResultRow {
    /** STRING columns. */
    public enum Text {
        STATUS, DETAIL, MODEL, PHASE, CHIP, SCALE_OUT, RECOMPUTE, PRECISION, BOTTLENECK, TOPOLOGY, SOFTWARE,
        WEIGHT_PRECISION, ACTIVATION_PRECISION, KV_CACHE_PRECISION, LOGIC_NODE, DRAM_TYPE, INVEST_FIRST,
        INVEST_FIRST_PER_W, SERVING_MODE, DISAGGREGATION, INTERVAL_GROUP;

        public String column() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** INT columns besides the integer metrics ({@code gpu_count}, {@code max_batch}). */
    public enum Count {
        PLAN_INDEX, SEQ_LEN, GLOBAL_BATCH, SCALE_UP_DOMAIN, TP, PP, DP, CP, EP, VPP, ZERO, MICRO_BATCH, INPUT_TOKENS,
        OUTPUT_TOKENS, CONCURRENCY, DRAM_STACKS, DIES;

        public String column() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** BOOLEAN columns. */
    public enum Flag {
        SP, OVERLAP_GRAD, FLASH_ATTENTION, CUDA_GRAPHS;

        public String column() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** DOUBLE columns that are settings, not results ({@link Metric} holds the results). */
    public enum Number {
        SCALE_OUT_GBIT_S, DIE_AREA_MM2, POWER_BUDGET_W;

        public String column() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** The value of an empty INT cell. */
    public static final int NO_COUNT = Integer.MIN_VALUE;
    /** Plan cells: every phase writes the ones it has and leaves the others empty. */
    private static final Text[] PLAN_TEXTS = {Text.RECOMPUTE, Text.PRECISION, Text.BOTTLENECK, Text.INVEST_FIRST,
        Text.INVEST_FIRST_PER_W};
    private static final Count[] PLAN_COUNTS = {Count.TP, Count.PP, Count.DP, Count.CP, Count.EP, Count.VPP,
        Count.ZERO, Count.MICRO_BATCH};
    private static final Flag[] PLAN_FLAGS = {Flag.SP, Flag.OVERLAP_GRAD, Flag.FLASH_ATTENTION};
    /** Workload cells that only some phases have: emptied before a phase writes its workload. */
    private static final Text[] WORKLOAD_TEXTS = {Text.SOFTWARE, Text.WEIGHT_PRECISION, Text.ACTIVATION_PRECISION,
        Text.KV_CACHE_PRECISION, Text.SERVING_MODE, Text.DISAGGREGATION};
    private static final Count[] WORKLOAD_COUNTS = {Count.INPUT_TOKENS, Count.OUTPUT_TOKENS, Count.CONCURRENCY};
    private static final Flag[] WORKLOAD_FLAGS = {Flag.CUDA_GRAPHS};

    private final String[] text;
    private final int[] counts;
    /** -1 empty, 0 false, 1 true. */
    private final byte[] flags;
    private final double[] numbers;
    final double[] metrics;
    final int[] coords;
    long pointIndex;
    PointStatus status;
    ModelSpec model;
    SweepSpec.Workload workload;
    Chip chip;
    int gpuCount;
    Object plan;

    public ResultRow(int axes) {
        coords = new int[axes];
        text = new String[Text.values().length];
        counts = new int[Count.values().length];
        flags = new byte[Flag.values().length];
        numbers = new double[Number.values().length];
        metrics = new double[Metric.values().length];
        Arrays.fill(counts, NO_COUNT);
        Arrays.fill(flags, (byte) -1);
        Arrays.fill(numbers, Double.NaN);
    }

    /** A copy that later evaluations do not touch (for sinks that keep rows). */
    public ResultRow copy() {
        return new ResultRow(this);
    }

    private ResultRow(ResultRow o) {
        text = o.text.clone();
        counts = o.counts.clone();
        flags = o.flags.clone();
        numbers = o.numbers.clone();
        metrics = o.metrics.clone();
        coords = o.coords.clone();
        // the point's context: shared, immutable values
        context(o.pointIndex, o.status, o.model, o.workload, o.chip, o.gpuCount, o.plan);
    }

    private void context(long index, PointStatus s, ModelSpec m, SweepSpec.Workload w, Chip c, int gpus, Object p) {
        pointIndex = index;
        status = s;
        model = m;
        workload = w;
        chip = c;
        gpuCount = gpus;
        plan = p;
    }

    // ---- cells ----

    public ResultRow set(Text column, String value) {
        text[column.ordinal()] = value;
        return this;
    }

    public ResultRow set(Count column, int value) {
        counts[column.ordinal()] = value;
        return this;
    }

    public ResultRow set(Flag column, boolean value) {
        flags[column.ordinal()] = (byte) (value ? 1 : 0);
        return this;
    }

    public ResultRow set(Number column, double value) {
        numbers[column.ordinal()] = value;
        return this;
    }

    /** A metric cell (analyses that add columns after the phase: energy split, sensitivities); NaN = null. */
    public ResultRow set(Metric column, double value) {
        metrics[column.ordinal()] = value;
        return this;
    }

    public ResultRow clear(Count column) {
        counts[column.ordinal()] = NO_COUNT;
        return this;
    }

    public ResultRow clear(Flag column) {
        flags[column.ordinal()] = -1;
        return this;
    }

    /** The cell's value, or null. */
    public String text(Text column) {
        return text[column.ordinal()];
    }

    /** The cell's value, or {@link #NO_COUNT}. */
    public int count(Count column) {
        return counts[column.ordinal()];
    }

    public boolean hasFlag(Flag column) {
        return flags[column.ordinal()] >= 0;
    }

    /** The cell's value; meaningful when {@link #hasFlag}. */
    public boolean flag(Flag column) {
        return flags[column.ordinal()] == 1;
    }

    /** The cell's value, or NaN. */
    public double number(Number column) {
        return numbers[column.ordinal()];
    }

    /** Empties the plan cells (and the bottleneck) before a phase writes its plan. */
    void clearPlan() {
        clear(PLAN_TEXTS, PLAN_COUNTS, PLAN_FLAGS);
        plan = null;
    }

    /** Empties the workload cells before the point's phase writes its own. */
    void clearWorkload() {
        clear(WORKLOAD_TEXTS, WORKLOAD_COUNTS, WORKLOAD_FLAGS);
    }

    private void clear(Text[] texts, Count[] countCells, Flag[] flagCells) {
        for (Text t : texts) {
            text[t.ordinal()] = null;
        }
        for (Count c : countCells) {
            counts[c.ordinal()] = NO_COUNT;
        }
        for (Flag f : flagCells) {
            flags[f.ordinal()] = -1;
        }
    }

    /** Records the phase's plan object of this row (a phase writes it with the plan cells). */
    public ResultRow plan(Object phasePlan) {
        plan = phasePlan;
        return this;
    }

    /** The phase's plan (a training or an inference plan; its toString names it), or null when the row has none. */
    public Object plan() {
        return plan;
    }

    // ---- what the point is ----

    public long pointIndex() {
        return pointIndex;
    }

    /** Index of the plan in the point's plan list (search) or in parallelism.plans (explicit); -1 when none. */
    public int planIndex() {
        return counts[Count.PLAN_INDEX.ordinal()];
    }

    /** Grid coordinates (see {@link Grid} axis constants). Do not modify. */
    public int coord(int axis) {
        return coords[axis];
    }

    public PointStatus status() {
        return status;
    }

    /** Why the point is not ok ("" when it is). */
    public String detail() {
        return text[Text.DETAIL.ordinal()];
    }

    public ModelSpec model() {
        return model;
    }

    public SweepSpec.Workload workload() {
        return workload;
    }

    public Chip chip() {
        return chip;
    }

    public int gpuCount() {
        return gpuCount;
    }

    public double metric(Metric m) {
        return metrics[m.ordinal()];
    }

    /** The metrics array itself, indexed by {@link Metric#ordinal()}; NaN = null. Do not modify. */
    public double[] metrics() {
        return metrics;
    }
}
