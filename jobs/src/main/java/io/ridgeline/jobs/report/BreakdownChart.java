package io.ridgeline.jobs.report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;

import java.awt.Color;
import java.awt.Font;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Step-time breakdown: one horizontal stacked bar per row (a plan on a cluster), one stack segment per exposed-time
 * column of the results schema. Components that are zero on every row are left out so the legend lists only what
 * matters.
 */
public final class BreakdownChart {
    /** The exposed-time columns that add up to step_time_s, in stacking order, with legend labels. */
    public static final List<String[]> COMPONENTS = List.of(
            new String[]{"compute_s", "compute"}, new String[]{"memory_bound_s", "memory-bound"},
            new String[]{"tp_comm_s", "TP comm"}, new String[]{"cp_comm_s", "CP comm"},
            new String[]{"ep_comm_s", "EP comm"}, new String[]{"pp_comm_s", "PP comm"},
            new String[]{"dp_comm_s", "DP comm"}, new String[]{"bubble_s", "pipeline bubble"},
            new String[]{"optimizer_s", "optimizer"}, new String[]{"overhead_s", "host overhead"});

    private BreakdownChart() {
    }

    public static List<String> columns() {
        return COMPONENTS.stream().map(c -> c[0]).toList();
    }

    /** One category per row, labelled by model (when several), chip, GPU count and plan. */
    public static DefaultCategoryDataset dataset(ResultRows rows) {
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
        if (r.has("micro_batch")) {
            sb.append(" mb").append(r.text(i, "micro_batch"));
        }
        return sb.toString();
    }

    public static JFreeChart chart(DefaultCategoryDataset ds, String title, String subtitle) {
        StackedBarRenderer r = new StackedBarRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setMaximumBarWidth(0.08);
        for (int s = 0; s < ds.getRowCount(); s++) {
            String key = ds.getRowKey(s).toString();
            int idx = 0;
            for (int k = 0; k < COMPONENTS.size(); k++) {
                if (COMPONENTS.get(k)[1].equals(key)) {
                    idx = k;
                }
            }
            r.setSeriesPaint(s, Png.color(idx));
        }
        CategoryAxis cat = new CategoryAxis("plan (chip x GPUs, parallelism, micro-batch)");
        cat.setTickLabelFont(new Font("SansSerif", Font.PLAIN, 11));
        cat.setMaximumCategoryLabelWidthRatio(0.5f);
        NumberAxis value = new NumberAxis("exposed time per optimizer step [s]");
        CategoryPlot plot = new CategoryPlot(ds, cat, value, r);
        plot.setOrientation(PlotOrientation.HORIZONTAL);
        plot.setRangeAxisLocation(AxisLocation.BOTTOM_OR_LEFT);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        JFreeChart chart = new JFreeChart(title, new Font("SansSerif", Font.BOLD, 16), plot, true);
        if (subtitle != null) {
            chart.addSubtitle(new TextTitle(subtitle, new Font("SansSerif", Font.PLAIN, 12)));
        }
        return chart;
    }

    /** "compute 71%, TP comm 9%..." of one row, for the text summary printed next to the PNG. */
    public static String shares(DefaultCategoryDataset ds, int column) {
        double total = 0;
        for (int s = 0; s < ds.getRowCount(); s++) {
            total += ds.getValue(s, column).doubleValue();
        }
        StringBuilder sb = new StringBuilder();
        for (int s = 0; s < ds.getRowCount(); s++) {
            double v = ds.getValue(s, column).doubleValue();
            if (v / total >= 0.01) {
                sb.append(sb.length() == 0 ? "" : ", ").append(ds.getRowKey(s)).append(' ')
                        .append(String.format(Locale.ROOT, "%.0f%%", 100 * v / total));
            }
        }
        return sb.toString();
    }
}
