package io.ridgeline.jobs.report;

import org.jfree.chart.JFreeChart;
import org.jfree.data.category.DefaultCategoryDataset;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Step-time breakdown: one horizontal stacked bar per row (a plan on a cluster), one stack segment per exposed-time
 * column of the results schema. Components that are zero on every row are left out so the legend lists only what
 * matters.
 */
public final class BreakdownChart {
    /**
     * The exposed-time columns that add up to step_time_s, in stacking order, with legend labels and the short names
     * of the per-bar shares.
     */
    public static final List<String[]> COMPONENTS = List.of(
            new String[]{"compute_s", "compute", "compute"}, new String[]{"memory_bound_s", "memory-bound", "mem"},
            new String[]{"tp_comm_s", "TP comm", "TP"}, new String[]{"cp_comm_s", "CP comm", "CP"},
            new String[]{"ep_comm_s", "EP comm", "EP"}, new String[]{"pp_comm_s", "PP comm", "PP"},
            new String[]{"dp_comm_s", "DP comm", "DP"}, new String[]{"bubble_s", "pipeline bubble", "bubble"},
            new String[]{"optimizer_s", "optimizer", "optimizer"}, new String[]{"overhead_s", "host overhead", "host"});

    private BreakdownChart() {
    }

    public static List<String> columns() {
        return COMPONENTS.stream().map(c -> c[0]).toList();
    }

    /** One category per row, labelled by model (when several), chip, GPU count and plan. */
    public static DefaultCategoryDataset dataset(ResultRows rows) {
        List<String> labels = labels(rows);
        DefaultCategoryDataset ds = new DefaultCategoryDataset();
        for (String[] comp : COMPONENTS) {
            if (!rows.has(comp[0])) {
                continue;
            }
            boolean any = false;
            for (int i = 0; i < rows.size(); i++) {
                any |= rows.number(i, comp[0]) > 0;
            }
            if (!any) {
                continue;
            }
            for (int i = 0; i < rows.size(); i++) {
                double v = rows.number(i, comp[0]);
                ds.addValue(Double.isFinite(v) ? v : 0, comp[1], labels.get(i));
            }
        }
        return ds;
    }

    /** One label per row: model (when several), chip, GPU count and plan; repeats numbered so bars never merge. */
    static List<String> labels(ResultRows rows) {
        Set<String> models = new LinkedHashSet<>();
        for (int i = 0; i < rows.size(); i++) {
            models.add(rows.has("model") ? rows.text(i, "model") : "");
        }
        List<String> labels = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            String label = label(rows, i, models.size() > 1);
            // Identical labels (same plan in two groups) would merge bars: number the repeats.
            String unique = label;
            for (int k = 2; labels.contains(unique); k++) {
                unique = label + " #" + k;
            }
            labels.add(unique);
        }
        return labels;
    }

    static String label(ResultRows r, int i, boolean withModel) {
        StringBuilder sb = new StringBuilder();
        if (withModel) {
            sb.append(r.text(i, "model")).append("  ");
        }
        sb.append(r.text(i, "chip")).append(" x").append(r.text(i, "gpu_count"));
        for (String p : new String[]{"tp", "pp", "dp", "cp", "ep"}) {
            boolean always = !p.equals("cp") && !p.equals("ep");
            if (r.has(p) && (always || r.number(i, p) > 1)) {
                sb.append(' ').append(p).append(r.text(i, p));
            }
        }
        if (r.has("phase") && r.text(i, "phase").equals("inference")) {
            // Serving rows differ by static batch and KV-cache format, not by micro-batch.
            if (r.has("global_batch")) {
                sb.append(" batch").append(r.text(i, "global_batch"));
            }
            if (r.has("kv_cache_precision") && !r.text(i, "kv_cache_precision").isEmpty()) {
                sb.append(" kv-").append(r.text(i, "kv_cache_precision"));
            }
        } else if (r.has("micro_batch")) {
            sb.append(" mb").append(r.text(i, "micro_batch"));
        }
        return sb.toString();
    }

    /**
     * Horizontal stacked bars, one colour per component. When every bar has room for its label line
     * ({@link StackedBarChart#subLabelsFit}) each bar's shares follow its plan ("compute 71%, TP 9%, ..."); otherwise
     * the subtitle says they were left out and the height they need (the plot command prints them all).
     *
     * @param heightPx the height the chart is drawn at, which decides whether the shares fit
     */
    public static JFreeChart chart(DefaultCategoryDataset ds, String title, String subtitle, int heightPx) {
        return StackedBarChart.planBars(ds, StackedBarChart.componentColours(ds, COMPONENTS, Png.color(0)),
                "exposed time per optimizer step [s]", title, subtitle, heightPx, "shares",
                c -> shortShares(ds, c));
    }

    /** "compute 71%, TP 9%, bubble 12%": the short form beside each bar, components of at least 1%. */
    static String shortShares(DefaultCategoryDataset ds, int column) {
        return shares(ds, column, true);
    }

    /** "compute 71%, TP comm 9%..." of one row, for the text summary printed next to the PNG. */
    public static String shares(DefaultCategoryDataset ds, int column) {
        return shares(ds, column, false);
    }

    /** The components of at least 1% of a bar with their shares, by short or by full (row key) name. */
    private static String shares(DefaultCategoryDataset ds, int column, boolean shortNames) {
        double total = 0;
        for (int s = 0; s < ds.getRowCount(); s++) {
            total += ds.getValue(s, column).doubleValue();
        }
        StringBuilder sb = new StringBuilder();
        for (int s = 0; s < ds.getRowCount(); s++) {
            double v = ds.getValue(s, column).doubleValue();
            if (v / total >= 0.01) {
                String key = ds.getRowKey(s).toString();
                String name = key;
                for (String[] c : COMPONENTS) {
                    if (shortNames && c[1].equals(key)) {
                        name = c[2];
                    }
                }
                sb.append(sb.length() == 0 ? "" : ", ").append(name).append(' ')
                        .append(String.format(Locale.ROOT, "%.0f%%", 100 * v / total));
            }
        }
        return sb.toString();
    }
}
