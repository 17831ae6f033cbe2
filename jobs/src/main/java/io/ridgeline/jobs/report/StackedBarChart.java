package io.ridgeline.jobs.report;

import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.ExtendedCategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.renderer.category.StackedBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.data.category.DefaultCategoryDataset;

import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Horizontal stacked bars with an optional sub-label after each bar's label (the step-time breakdown and the memory
 * headroom), drawn only when every bar has room for its label: see {@link #subLabelsFit}.
 */
final class StackedBarChart {
    /**
     * Height of one bar's band that holds its label line (11 pt plan and, on the same line, the 10 pt sub-label:
     * ~13 px in the JDK's sans-serif) plus 1 px between bands. Checked on PNGs of 15, 40 and 48 bars 800 px tall:
     * below this the labels of neighbouring bars touch.
     */
    static final int LABEL_BAND_PX = 14;
    /** Title, subtitle, legend, value axis and insets of these charts: ~140 px at the fonts used here (measured). */
    static final int FURNITURE_PX = 140;

    private StackedBarChart() {
    }

    /** True when {@code bars} bars drawn {@code heightPx} tall each have a band of at least one label line. */
    static boolean subLabelsFit(int bars, int heightPx) {
        return bars > 0 && heightPx - FURNITURE_PX >= (long) bars * LABEL_BAND_PX;
    }

    /** The smallest chart height at which {@code bars} bars get their second label line. */
    static int heightForSubLabels(int bars) {
        return FURNITURE_PX + bars * LABEL_BAND_PX;
    }

    /**
     * One paint per dataset row: the palette colour of its component (the row key is {@code components[k][1]}), or
     * {@code other} for a row that is no component.
     */
    static List<Paint> componentColours(DefaultCategoryDataset ds, List<String[]> components, Paint other) {
        List<Paint> colours = new ArrayList<>();
        for (int s = 0; s < ds.getRowCount(); s++) {
            String key = ds.getRowKey(s).toString();
            int idx = -1;
            for (int k = 0; k < components.size(); k++) {
                if (components.get(k)[1].equals(key)) {
                    idx = k;
                }
            }
            colours.add(idx < 0 ? other : Png.color(idx));
        }
        return colours;
    }

    /**
     * Horizontal bars, one per plan, each followed by its {@code subLabel} when every bar has room for the line
     * ({@link #subLabelsFit}); otherwise the subtitle says that the {@code what} per bar was left out and the height
     * it needs.
     *
     * @param heightPx the height the chart is drawn at, which decides whether the sub-labels fit
     */
    static JFreeChart planBars(DefaultCategoryDataset ds, List<Paint> colours, String valueLabel, String title,
                               String subtitle, int heightPx, String what, IntFunction<String> subLabel) {
        Map<String, String> subLabels = new LinkedHashMap<>();
        boolean fit = subLabelsFit(ds.getColumnCount(), heightPx);
        for (int c = 0; fit && c < ds.getColumnCount(); c++) {
            subLabels.put(ds.getColumnKey(c).toString(), subLabel.apply(c));
        }
        String sub = fit ? subtitle : subtitle + "; " + what + " per bar left out: " + ds.getColumnCount()
                + " bars need " + heightForSubLabels(ds.getColumnCount()) + " px";
        return horizontal(ds, colours, "plan (chip x GPUs, parallelism, micro-batch)", valueLabel, title, sub,
                subLabels);
    }

    /**
     * @param colours   one paint per dataset row (stack segment)
     * @param subLabels second label line per category (column key); empty for none
     */
    static JFreeChart horizontal(DefaultCategoryDataset ds, List<Paint> colours, String categoryLabel,
                                 String valueLabel, String title, String subtitle, Map<String, String> subLabels) {
        StackedBarRenderer r = new StackedBarRenderer();
        r.setBarPainter(new StandardBarPainter());
        r.setShadowVisible(false);
        r.setMaximumBarWidth(0.08);
        for (int s = 0; s < ds.getRowCount(); s++) {
            r.setSeriesPaint(s, colours.get(s));
        }
        ExtendedCategoryAxis cat = new ExtendedCategoryAxis(categoryLabel);
        cat.setTickLabelFont(new Font("SansSerif", Font.PLAIN, 11));
        cat.setSubLabelFont(new Font("SansSerif", Font.PLAIN, 10));
        cat.setSubLabelPaint(new Color(0x555555));
        cat.setMaximumCategoryLabelWidthRatio(0.5f);
        for (Map.Entry<String, String> e : subLabels.entrySet()) {
            cat.addSubLabel(e.getKey(), e.getValue());
        }
        NumberAxis value = new NumberAxis(valueLabel);
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
}
