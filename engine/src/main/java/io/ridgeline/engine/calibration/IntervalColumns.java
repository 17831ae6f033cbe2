package io.ridgeline.engine.calibration;

import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.evaluation.PlanResult;
import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.evaluation.RowAnalysis;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.network.SystemSpec;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.engine.workload.ModelCatalog;

import java.util.HashMap;

/**
 * The prediction-interval columns of every row (issue 11): for each main output with an interval, its {@code _lo}
 * and {@code _hi} ends at the run's coverage from {@link SweepCalibration#intervals} (the profile's intervals, else
 * catalog/intervals.csv), and {@code interval_group}, the stack family and chip family whose systematic error the row
 * shares (pareto.RobustDominance compares rows of different groups within their intervals). Training rows: step time
 * and tokens/s (one residual: a rate is the inverse of a time); inference rows: TTFT, TPOT, end-to-end latency,
 * output tokens/s per GPU and the cluster's tokens/s (the output-throughput group). Memory has no interval (no
 * measured peak memory in the dev files): its columns have none. An output without a group stays null.
 *
 * <p>Hot path: a row's groups depend on its stack and chip family only; they are resolved once per (stack, family)
 * and found again with two map lookups on strings the spec and catalogue already hold (rows of one point
 * configuration come in runs, so a one-entry cache answers nearly every row). Per row: two multiplications per
 * output, no allocation.
 */
public final class IntervalColumns implements RowAnalysis {
    /** The service entry ({@code META-INF/services}). */
    public static final class Provider implements RowAnalysis.Provider {
        @Override
        public RowAnalysis create(SweepSpec spec, ModelCatalog models, HardwareCatalog hardware,
                                  StackCatalog stacks) {
            return new IntervalColumns(SweepCalibration.intervals(spec));
        }
    }

    /** The outputs with interval columns, in {@link Metric#low()} order. */
    private static final Metric[] OUTPUTS = {Metric.STEP_TIME_S, Metric.TOKENS_PER_S, Metric.TTFT_S, Metric.TPOT_S,
        Metric.E2E_LATENCY_S, Metric.OUTPUT_TOKENS_PER_S_PER_GPU};
    /** Rates: their interval is the inverse of the time interval of the same run. */
    private static final boolean[] RATE = {false, true, false, false, false, true};
    /** Per phase (training, inference), the interval output of each column; null = none on that phase. */
    private static final IntervalOutput[][] SOURCES = {
        {IntervalOutput.STEP_TIME, IntervalOutput.STEP_TIME, null, null, null, null},
        {null, IntervalOutput.OUTPUT_THROUGHPUT, IntervalOutput.TTFT, IntervalOutput.TPOT,
            IntervalOutput.E2E_LATENCY, IntervalOutput.OUTPUT_THROUGHPUT}};
    private static final int[] VALUE = new int[OUTPUTS.length];
    private static final Metric[] LOW = new Metric[OUTPUTS.length];
    private static final Metric[] HIGH = new Metric[OUTPUTS.length];

    static {
        for (int i = 0; i < OUTPUTS.length; i++) {
            VALUE[i] = OUTPUTS[i].ordinal();
            LOW[i] = OUTPUTS[i].low();
            HIGH[i] = OUTPUTS[i].high();
        }
    }

    /** The groups of one (stack, chip family): per phase and column, the model's group (-1: none). */
    private record Groups(int[][] byPhase, String label) {
    }

    private final IntervalModel model;
    private final HashMap<String, HashMap<String, Groups>> byStack = new HashMap<>();
    private String lastStack;
    private String lastFamily;
    private Groups last;

    public IntervalColumns(IntervalModel model) {
        this.model = model;
    }

    /** The {@code interval_group} of a stack (id, "" = none) on a chip family: "framework-family|chip-family". */
    public static String label(String stack, String family) {
        String s = IntervalModel.stackFamily(stack);
        return (s.isEmpty() ? "none" : s) + "|" + family;
    }

    @Override
    public long analyse(Evaluator source, ResultRow row, PlanResult result, SystemSpec system) {
        for (int i = 0; i < OUTPUTS.length; i++) {
            row.set(LOW[i], Double.NaN);
            row.set(HIGH[i], Double.NaN);
        }
        row.set(ResultRow.Text.INTERVAL_GROUP, null);
        Chip chip = row.chip();
        if (chip == null || row.workload() == null) {
            return 0;
        }
        String stack = row.text(ResultRow.Text.SOFTWARE);
        Groups g = groups(stack == null ? "" : stack, chip.family().name());
        int[] groups = g.byPhase[row.workload().inference() ? 1 : 0];
        double[] m = row.metrics();
        boolean any = false;
        for (int i = 0; i < OUTPUTS.length; i++) {
            double v = m[VALUE[i]];
            int k = groups[i];
            if (k < 0 || Double.isNaN(v)) {
                continue;
            }
            row.set(LOW[i], RATE[i] ? model.rateLow(k, v) : model.timeLow(k, v));
            row.set(HIGH[i], RATE[i] ? model.rateHigh(k, v) : model.timeHigh(k, v));
            any = true;
        }
        if (any) {
            row.set(ResultRow.Text.INTERVAL_GROUP, g.label);
        }
        return 0;
    }

    private Groups groups(String stack, String family) {
        if (last != null && stack.equals(lastStack) && family.equals(lastFamily)) {
            return last;
        }
        HashMap<String, Groups> byFamily = byStack.computeIfAbsent(stack, k -> new HashMap<>());
        Groups g = byFamily.get(family);
        if (g == null) {
            int[][] byPhase = new int[SOURCES.length][OUTPUTS.length];
            for (int p = 0; p < SOURCES.length; p++) {
                for (int i = 0; i < OUTPUTS.length; i++) {
                    IntervalOutput o = SOURCES[p][i];
                    byPhase[p][i] = o == null ? -1 : model.group(o, stack, family);
                }
            }
            g = new Groups(byPhase, label(stack, family));
            byFamily.put(family, g);
        }
        lastStack = stack;
        lastFamily = family;
        last = g;
        return g;
    }
}
