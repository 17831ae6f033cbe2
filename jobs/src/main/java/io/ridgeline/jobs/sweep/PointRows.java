package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.schema.Column;
import io.ridgeline.schema.ColumnType;
import io.ridgeline.schema.ResultsSchema;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns a {@link ResultRow} into a row of the points table. Every cell of the engine's row is named by its results
 * column; the column positions and types come from results-schema, looked up by name once. No phase branches: a
 * cell the phase left empty is a null.
 */
public final class PointRows {
    private static final int WIDTH = ResultsSchema.POINTS.columns().size();
    private static final int POINT_INDEX = at("point_index", ColumnType.LONG);
    private static final ResultRow.Text[] TEXTS = ResultRow.Text.values();
    private static final ResultRow.Count[] COUNTS = ResultRow.Count.values();
    private static final ResultRow.Flag[] FLAGS = ResultRow.Flag.values();
    private static final ResultRow.Number[] NUMBERS = ResultRow.Number.values();
    private static final Metric[] METRICS = Metric.values();
    private static final int[] TEXT_AT = new int[TEXTS.length];
    private static final int[] COUNT_AT = new int[COUNTS.length];
    private static final int[] FLAG_AT = new int[FLAGS.length];
    private static final int[] NUMBER_AT = new int[NUMBERS.length];
    private static final int[] METRIC_AT = new int[METRICS.length];
    /** Metrics stored in INT columns (gpu_count, max_batch): written as int. */
    private static final boolean[] METRIC_INT = new boolean[METRICS.length];

    static {
        boolean[] covered = new boolean[WIDTH];
        covered[POINT_INDEX] = true;
        for (ResultRow.Text t : TEXTS) {
            covered[TEXT_AT[t.ordinal()] = at(t.column(), ColumnType.STRING)] = true;
        }
        for (ResultRow.Count c : COUNTS) {
            covered[COUNT_AT[c.ordinal()] = at(c.column(), ColumnType.INT)] = true;
        }
        for (ResultRow.Flag f : FLAGS) {
            covered[FLAG_AT[f.ordinal()] = at(f.column(), ColumnType.BOOLEAN)] = true;
        }
        for (ResultRow.Number n : NUMBERS) {
            covered[NUMBER_AT[n.ordinal()] = at(n.column(), ColumnType.DOUBLE)] = true;
        }
        for (Metric m : METRICS) {
            ColumnType type = ResultsSchema.POINTS.column(m.column()).type();
            METRIC_INT[m.ordinal()] = type == ColumnType.INT;
            covered[METRIC_AT[m.ordinal()] = at(m.column(), METRIC_INT[m.ordinal()] ? ColumnType.INT
                    : ColumnType.DOUBLE)] = true;
        }
        for (int c = 0; c < WIDTH; c++) {
            if (!covered[c]) {
                throw new IllegalStateException("the engine's result row has no cell for points column "
                        + ResultsSchema.POINTS.columns().get(c).name());
            }
        }
    }

    private PointRows() {
    }

    /** The schema position of a column the engine fills, checked against its type. */
    private static int at(String name, ColumnType type) {
        Column c = ResultsSchema.POINTS.column(name);
        if (c.type() != type) {
            throw new IllegalStateException("points column " + name + " is " + c.type() + ", the engine writes "
                    + type);
        }
        return ResultsSchema.POINTS.index(name);
    }

    /** A Spark row with every column (frontier rows, tests); the points table is written by {@link #emit}. */
    public static Row toRow(ResultRow p) {
        Object[] v = new Object[WIDTH];
        emit(p, new Fields() {
            @Override
            public void longAt(int column, long value) {
                v[column] = value;
            }

            @Override
            public void intAt(int column, int value) {
                v[column] = value;
            }

            @Override
            public void doubleAt(int column, double value) {
                v[column] = value;
            }

            @Override
            public void stringAt(int column, String value) {
                v[column] = value;
            }

            @Override
            public void booleanAt(int column, boolean value) {
                v[column] = value;
            }
        });
        return RowFactory.create(v);
    }

    /**
     * Receives the non-null values of one points row by column index (results-schema order); a null value is simply
     * not delivered. No boxing, no {@code Object[]}.
     */
    interface Fields {
        void longAt(int column, long value);

        void intAt(int column, int value);

        void doubleAt(int column, double value);

        /** Never called with null. */
        void stringAt(int column, String value);

        void booleanAt(int column, boolean value);
    }

    /** Delivers every non-null cell of the row, column by column. */
    static void emit(ResultRow p, Fields out) {
        out.longAt(POINT_INDEX, p.pointIndex());
        for (int i = 0; i < TEXTS.length; i++) {
            String s = p.text(TEXTS[i]);
            if (s != null) {
                out.stringAt(TEXT_AT[i], s);
            }
        }
        for (int i = 0; i < COUNTS.length; i++) {
            int n = p.count(COUNTS[i]);
            if (n != ResultRow.NO_COUNT) {
                out.intAt(COUNT_AT[i], n);
            }
        }
        for (int i = 0; i < FLAGS.length; i++) {
            if (p.hasFlag(FLAGS[i])) {
                out.booleanAt(FLAG_AT[i], p.flag(FLAGS[i]));
            }
        }
        for (int i = 0; i < NUMBERS.length; i++) {
            double x = p.number(NUMBERS[i]);
            if (!Double.isNaN(x)) {
                out.doubleAt(NUMBER_AT[i], x);
            }
        }
        double[] m = p.metrics();
        for (int i = 0; i < METRICS.length; i++) {
            double x = m[i];
            if (Double.isNaN(x)) {
                continue;
            }
            if (METRIC_INT[i]) {
                out.intAt(METRIC_AT[i], (int) x);
            } else {
                out.doubleAt(METRIC_AT[i], x);
            }
        }
    }

    /** The row's non-null columns by name, in results-schema order (eval's JSON: exactly a points row). */
    public static Map<String, Object> toMap(ResultRow p) {
        Row row = toRow(p);
        Map<String, Object> out = new LinkedHashMap<>();
        for (int c = 0; c < WIDTH; c++) {
            if (!row.isNullAt(c)) {
                out.put(ResultsSchema.POINTS.columns().get(c).name(), row.get(c));
            }
        }
        return out;
    }

    /** The same row with the frontier group label and the robust flag appended (frontier table layout). */
    public static Row withGroup(Row points, String group, boolean robust) {
        Object[] v = new Object[WIDTH + 2];
        for (int i = 0; i < WIDTH; i++) {
            v[i] = points.get(i);
        }
        v[WIDTH] = group;
        v[WIDTH + 1] = robust;
        return RowFactory.create(v);
    }
}
