package io.ridgeline.jobs.report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.AbstractCategoryItemRenderer;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.LineAndShapeRenderer;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.List;
import java.util.Locale;

/**
 * A category chart over the rows of any query: x is a label column (categories in row order), and the values are
 * either several numeric columns (one series each) or one numeric column split into series by a label column. Drawn
 * as lines (a metric against an ordered axis such as a technology node), grouped bars, or vertical stacked bars (a
 * breakdown per category). Used by the studies in docs/studies/.
 */
public final class SeriesChart {
    /** How the values are drawn. */
    public enum Kind { LINE, BAR, STACKED }

    private SeriesChart() {
    }

    /**
     * @param x      label column giving the categories, in first-seen row order
     * @param ys     numeric columns; with {@code series} exactly one
     * @param series label column splitting {@code ys.get(0)} into series, or null for one series per y column
     * @param labels legend labels for the y columns (same length as ys), or null for the column names
     */
    public static DefaultCategoryDataset dataset(ResultRows rows, String x, List<String> ys, String series,
                                                 List<String> labels) {
        if (series != null && ys.size() != 1) {
            throw new IllegalArgumentException("--series needs exactly one --y column, found " + ys);
        }
        if (labels != null && labels.size() != ys.size()) {
            throw new IllegalArgumentException("--labels needs one label per --y column (" + ys.size() + "), found "
                    + labels.size());
        }
        DefaultCategoryDataset ds = new DefaultCategoryDataset();
        for (int i = 0; i < rows.size(); i++) {
            String cat = rows.text(i, x);
            if (series != null) {
                double v = rows.number(i, ys.get(0));
                if (Double.isFinite(v)) {
                    ds.addValue(v, rows.text(i, series), cat);
                }
                continue;
            }
            for (int k = 0; k < ys.size(); k++) {
                double v = rows.number(i, ys.get(k));
                if (Double.isFinite(v)) {
                    ds.addValue(v, labels == null ? ys.get(k) : labels.get(k), cat);
                }
            }
        }
        return ds;
    }

    public static JFreeChart chart(DefaultCategoryDataset ds, Kind kind, String title, String subtitle,
                                   String xLabel, String yLabel, boolean logY, boolean valueLabels) {
        AbstractCategoryItemRenderer r;
        switch (kind) {
            case LINE -> {
                LineAndShapeRenderer l = new LineAndShapeRenderer(true, true);
                for (int s = 0; s < ds.getRowCount(); s++) {
                    l.setSeriesStroke(s, new BasicStroke(2.2f));
                }
                r = l;
            }
            case STACKED -> {
                StackedBarRenderer b = new StackedBarRenderer();
                b.setBarPainter(new StandardBarPainter());
                b.setShadowVisible(false);
                b.setMaximumBarWidth(0.12);
                r = b;
            }
            default -> {
                BarRenderer b = new BarRenderer();
                b.setBarPainter(new StandardBarPainter());
                b.setShadowVisible(false);
                b.setItemMargin(0.02);
                r = b;
            }
        }
        for (int s = 0; s < ds.getRowCount(); s++) {
            r.setSeriesPaint(s, Png.color(s));
        }
        if (valueLabels) {
            r.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}",
                    new DecimalFormat("0.##", DecimalFormatSymbols.getInstance(Locale.ROOT))));
            r.setDefaultItemLabelsVisible(true);
            r.setDefaultItemLabelFont(new Font("SansSerif", Font.PLAIN, 11));
        }
        CategoryAxis cat = new CategoryAxis(xLabel);
        cat.setTickLabelFont(new Font("SansSerif", Font.PLAIN, 11));
        cat.setMaximumCategoryLabelLines(3);
        if (ds.getColumnCount() > 10) {
            cat.setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        }
        ValueAxis value;
        if (logY) {
            LogAxis log = new PlainLogAxis(yLabel);
            log.setNumberFormatOverride(new Png.SiFormat());
            log.setSmallestValue(1e-12);
            value = log;
        } else {
            NumberAxis n = new NumberAxis(yLabel);
            n.setAutoRangeIncludesZero(kind != Kind.LINE);
            value = n;
        }
        CategoryPlot plot = new CategoryPlot(ds, cat, value, r);
        plot.setOrientation(PlotOrientation.VERTICAL);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        JFreeChart chart = new JFreeChart(title, new Font("SansSerif", Font.BOLD, 16), plot, true);
        if (subtitle != null && !subtitle.isBlank()) {
            chart.addSubtitle(new TextTitle(subtitle, new Font("SansSerif", Font.PLAIN, 12)));
        }
        return chart;
    }
}
