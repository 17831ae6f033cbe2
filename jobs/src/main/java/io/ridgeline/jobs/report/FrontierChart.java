package io.ridgeline.jobs.report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.DatasetRenderingOrder;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Rectangle2D;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Frontier scatter: every feasible point of a run on two result columns, one colour per value of a label column
 * (chip by default), with each frontier group's Pareto points joined by a black line.
 */
public final class FrontierChart {
    /** Prefix of the frontier series' keys; the rest is the group label. */
    public static final String FRONTIER_PREFIX = "frontier ";

    public enum Scale { AUTO, LOG, LINEAR }

    private FrontierChart() {
    }

    /**
     * Series: one per distinct {@code colorBy} value over {@code points}, then one per frontier group (sorted by x, so
     * the line reads as the trade-off curve). Rows whose x or y is missing or not positive-finite are skipped.
     */
    public static XYSeriesCollection dataset(ResultRows points, ResultRows frontier, String x, String y,
                                             String colorBy) {
        XYSeriesCollection ds = new XYSeriesCollection();
        Map<String, XYSeries> byLabel = new LinkedHashMap<>();
        for (int i = 0; i < points.size(); i++) {
            double vx = points.number(i, x);
            double vy = points.number(i, y);
            if (Double.isFinite(vx) && Double.isFinite(vy)) {
                String label = points.text(i, colorBy);
                byLabel.computeIfAbsent(label, k -> new XYSeries(k, false, true)).add(vx, vy);
            }
        }
        byLabel.values().forEach(ds::addSeries);
        if (frontier != null) {
            Map<String, XYSeries> byGroup = new LinkedHashMap<>();
            for (int i = 0; i < frontier.size(); i++) {
                double vx = frontier.number(i, x);
                double vy = frontier.number(i, y);
                if (Double.isFinite(vx) && Double.isFinite(vy)) {
                    String g = frontier.has("frontier_group") ? frontier.text(i, "frontier_group") : "";
                    byGroup.computeIfAbsent(g, k -> new XYSeries(FRONTIER_PREFIX + k, true, true)).add(vx, vy);
                }
            }
            byGroup.values().forEach(ds::addSeries);
        }
        return ds;
    }

    public static JFreeChart chart(XYSeriesCollection ds, String table, String x, String y, String title,
                                   String subtitle, Scale scale) {
        // Two renderers: filled points without outlines (an outline in the fill colour would double every point in
        // an SVG), and the frontier's dashed lines with hollow squares on top of them.
        XYSeriesCollection points = new XYSeriesCollection();
        XYSeriesCollection fronts = new XYSeriesCollection();
        for (int s = 0; s < ds.getSeriesCount(); s++) {
            boolean frontier = ds.getSeriesKey(s).toString().startsWith(FRONTIER_PREFIX);
            (frontier ? fronts : points).addSeries(ds.getSeries(s));
        }
        XYLineAndShapeRenderer pr = new XYLineAndShapeRenderer(false, true);
        pr.setDrawOutlines(false);
        for (int s = 0; s < points.getSeriesCount(); s++) {
            pr.setSeriesPaint(s, Png.color(s));
            pr.setSeriesShape(s, new Ellipse2D.Double(-4, -4, 8, 8));
        }
        XYLineAndShapeRenderer fr = new XYLineAndShapeRenderer(true, true);
        for (int s = 0; s < fronts.getSeriesCount(); s++) {
            fr.setSeriesPaint(s, Color.BLACK);
            fr.setSeriesStroke(s, new BasicStroke(1.6f, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND, 1f,
                    new float[]{6f, 4f}, 0f));
            fr.setSeriesShape(s, new Rectangle2D.Double(-5, -5, 10, 10));
            fr.setSeriesShapesFilled(s, false);
        }
        XYPlot plot = new XYPlot(points, axis(ds, true, table, x, scale), axis(ds, false, table, y, scale), pr);
        plot.setDataset(1, fronts);
        plot.setRenderer(1, fr);
        plot.setDatasetRenderingOrder(DatasetRenderingOrder.FORWARD);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xDDDDDD));
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        // Frontier lines share one style: name each at its right end.
        for (int s = 0; s < ds.getSeriesCount(); s++) {
            String key = ds.getSeriesKey(s).toString();
            int n = ds.getItemCount(s);
            if (key.startsWith(FRONTIER_PREFIX) && n > 0) {
                XYTextAnnotation a = new XYTextAnnotation(key.substring(FRONTIER_PREFIX.length()) + "  ",
                        ds.getXValue(s, n - 1), ds.getYValue(s, n - 1));
                a.setFont(new Font("SansSerif", Font.BOLD, 11));
                a.setTextAnchor(TextAnchor.BOTTOM_RIGHT);
                plot.addAnnotation(a);
            }
        }
        JFreeChart chart = new JFreeChart(title, new Font("SansSerif", Font.BOLD, 16), plot, true);
        if (subtitle != null) {
            chart.addSubtitle(new TextTitle(subtitle, new Font("SansSerif", Font.PLAIN, 12)));
        }
        return chart;
    }

    private static ValueAxis axis(XYSeriesCollection ds, boolean domain, String table, String column, Scale scale) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (int s = 0; s < ds.getSeriesCount(); s++) {
            for (int i = 0; i < ds.getItemCount(s); i++) {
                double v = domain ? ds.getXValue(s, i) : ds.getYValue(s, i);
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        String label = ColumnSelector.header(table, column);
        boolean log = scale == Scale.LOG || (scale == Scale.AUTO && min > 0 && max / min > 30);
        if (log && min > 0) {
            LogAxis a = new PlainLogAxis(label + " (log scale)");
            a.setSmallestValue(min / 2);
            a.setNumberFormatOverride(new Png.SiFormat());
            a.setMinorTickMarksVisible(true);
            return a;
        }
        NumberAxis a = new NumberAxis(label);
        a.setAutoRangeIncludesZero(false);
        a.setNumberFormatOverride(new Png.SiFormat());
        return a;
    }
}
