package io.ridgeline.jobs.report;

import org.jfree.chart.JFreeChart;
import org.jfree.data.category.DefaultCategoryDataset;

import java.awt.Color;
import java.awt.Paint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Memory headroom: one horizontal stacked bar per row, the resident bytes of the most loaded device by kind (the
 * results' weight, gradient, optimizer, activation, KV-cache and reserve columns, which add up to hbm_bytes) and the
 * free rest of hbm_capacity_bytes, in GiB.
 */
public final class MemoryChart {
    /** Resident-byte columns in stacking order, with legend labels. */
    public static final List<String[]> COMPONENTS = List.of(
            new String[]{"weight_bytes", "weights"}, new String[]{"gradient_bytes", "gradients"},
            new String[]{"optimizer_bytes", "optimizer state"}, new String[]{"activation_bytes", "activations"},
            new String[]{"kv_cache_bytes", "KV cache"}, new String[]{"reserve_bytes", "framework reserve"});
    public static final String FREE = "free";
    private static final double GIB = 1024.0 * 1024 * 1024;

    private MemoryChart() {
    }

    /** Columns the chart reads (besides the label columns of {@link BreakdownChart#label}). */
    public static List<String> columns() {
        List<String> cols = new ArrayList<>(COMPONENTS.stream().map(c -> c[0]).toList());
        cols.add("hbm_bytes");
        cols.add("hbm_capacity_bytes");
        return cols;
    }

    /**
     * One category per row with a capacity; components that are zero or missing on every row are left out. Labels are
     * the breakdown's (model, chip x GPUs, plan), numbered when repeated.
     */
    public static DefaultCategoryDataset dataset(ResultRows rows) {
        DefaultCategoryDataset ds = new DefaultCategoryDataset();
        List<Integer> kept = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            if (rows.number(i, "hbm_capacity_bytes") > 0) {
                kept.add(i);
            }
        }
        List<String> labels = BreakdownChart.labels(rows);
        for (String[] comp : COMPONENTS) {
            if (!rows.has(comp[0]) || kept.stream().noneMatch(i -> rows.number(i, comp[0]) > 0)) {
                continue;
            }
            for (int i : kept) {
                double v = rows.number(i, comp[0]);
                ds.addValue(Double.isFinite(v) ? v / GIB : 0, comp[1], labels.get(i));
            }
        }
        for (int i : kept) {
            double free = rows.number(i, "hbm_capacity_bytes") - rows.number(i, "hbm_bytes");
            ds.addValue(Double.isFinite(free) && free > 0 ? free / GIB : 0, FREE, labels.get(i));
        }
        return ds;
    }

    /** "62.1 of 80 GiB used, 22% free" per bar (the rule of {@link StackedBarChart#subLabelsFit} decides). */
    public static JFreeChart chart(DefaultCategoryDataset ds, String title, String subtitle, int heightPx) {
        // Free memory is white with the plot's grid behind it: the bar ends where capacity ends.
        return StackedBarChart.planBars(ds, StackedBarChart.componentColours(ds, COMPONENTS, new Color(0xEEEEEE)),
                "memory of the most loaded device [GiB]", title, subtitle, heightPx, "usage", c -> usage(ds, c));
    }

    static String usage(DefaultCategoryDataset ds, int column) {
        double used = 0;
        double free = 0;
        for (int s = 0; s < ds.getRowCount(); s++) {
            double v = ds.getValue(s, column).doubleValue();
            if (ds.getRowKey(s).equals(FREE)) {
                free = v;
            } else {
                used += v;
            }
        }
        return String.format(Locale.ROOT, "%.1f of %.0f GiB used, %.0f%% free", used, used + free,
                100 * free / (used + free));
    }
}
