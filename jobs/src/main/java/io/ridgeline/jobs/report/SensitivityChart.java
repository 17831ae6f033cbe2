package io.ridgeline.jobs.report;

import io.ridgeline.engine.evaluation.Resource;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jfree.data.statistics.DefaultBoxAndWhiskerCategoryDataset;

import java.util.ArrayList;
import java.util.List;

/**
 * The sensitivity charts (docs/SENSITIVITY.md): one point's speed-up from +10% of each resource (plan held and
 * re-searched), and the distribution of the re-searched speed-up over a frontier's rows, per resource.
 */
public final class SensitivityChart {
    private SensitivityChart() {
    }

    /** The columns a chart reads: each resource's plan-held and re-searched speed-up. */
    public static List<String> columns() {
        List<String> out = new ArrayList<>();
        for (Resource r : Resource.values()) {
            out.add(r.fixedPlan().column());
            out.add(r.searched().column());
        }
        return out;
    }

    /** Bars of row {@code row}: two per resource, in percent. */
    public static JFreeChart point(ResultRows rows, int row, String title, String subtitle) {
        DefaultCategoryDataset ds = new DefaultCategoryDataset();
        for (Resource r : Resource.values()) {
            ds.addValue(100 * rows.number(row, r.fixedPlan().column()), "plan held", r.label());
            ds.addValue(100 * rows.number(row, r.searched().column()), "plan re-searched", r.label());
        }
        JFreeChart c = ChartFactory.createBarChart(title, "resource (+10%)", "speed-up of tokens/s [%]", ds,
                PlotOrientation.HORIZONTAL, true, false, false);
        c.addSubtitle(new org.jfree.chart.title.TextTitle(subtitle));
        return c;
    }

    /** Box and whiskers of the re-searched speed-up over every row, per resource, in percent. */
    public static JFreeChart distribution(ResultRows rows, String title, String subtitle) {
        DefaultBoxAndWhiskerCategoryDataset ds = new DefaultBoxAndWhiskerCategoryDataset();
        for (Resource r : Resource.values()) {
            List<Double> values = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                double v = rows.number(i, r.searched().column());
                if (!Double.isNaN(v)) {
                    values.add(100 * v);
                }
            }
            ds.add(values, "plan re-searched", r.label());
        }
        JFreeChart c = ChartFactory.createBoxAndWhiskerChart(title, "resource (+10%)", "speed-up of tokens/s [%]", ds,
                false);
        c.addSubtitle(new org.jfree.chart.title.TextTitle(subtitle));
        return c;
    }
}
