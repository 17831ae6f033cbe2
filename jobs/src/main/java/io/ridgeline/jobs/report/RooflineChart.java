package io.ridgeline.jobs.report;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.ops.GemmModel;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.annotations.XYTextAnnotation;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.geom.Ellipse2D;
import java.text.DecimalFormat;
import java.util.List;
import java.util.Locale;

/**
 * Roofline of one chip (Williams, Waterman and Patterson 2009): attainable FLOP/s = min(peak, intensity x bandwidth)
 * for the datasheet peaks and for the sustained ceilings the engine uses (GEMM peak fraction and STREAM fraction of
 * the chip's family), with GEMM shapes placed at their intensity and the throughput {@link GemmModel} predicts.
 */
public final class RooflineChart {
    public static final String DATASHEET = "datasheet roof";
    public static final String SUSTAINED = "sustained roof (engine ceilings)";
    public static final String GEMMS = "GEMM shapes (GemmModel)";
    /** Arithmetic-intensity range of the x axis [FLOP/byte]. */
    static final double MIN_INTENSITY = 0.1;
    static final double MAX_INTENSITY = 1e4;
    private static final int SAMPLES = 200;

    /** C[m,n] = A[m,k] B[k,n]. */
    public record Gemm(long m, long n, long k) {
        public Gemm {
            if (m < 1 || n < 1 || k < 1) {
                throw new IllegalArgumentException("GEMM dimensions must be positive: " + m + "x" + n + "x" + k);
            }
        }

        /** 2mnk FLOPs over operands read once and the output written once (the DRAM roofline's traffic). */
        public double intensity(Precision p) {
            return 2.0 * m * n * k / ((double) m * k + (double) k * n + (double) m * n) / p.bytes();
        }

        public String label() {
            return m + "x" + n + "x" + k;
        }

        /** Parses "4096x4096x4096"; null when malformed. */
        public static Gemm parse(String s) {
            String[] p = s.trim().toLowerCase(Locale.ROOT).split("x");
            if (p.length != 3) {
                return null;
            }
            try {
                long m = Long.parseLong(p[0]);
                long n = Long.parseLong(p[1]);
                long k = Long.parseLong(p[2]);
                return m > 0 && n > 0 && k > 0 ? new Gemm(m, n, k) : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    /** Default shapes: a GPT-3 175B layer's GEMMs at training tokens (4096) and at small-batch decode (16). */
    public static final List<Gemm> DEFAULT_GEMMS = List.of(new Gemm(4096, 36864, 12288),
            new Gemm(4096, 12288, 49152), new Gemm(1024, 1024, 1024), new Gemm(256, 256, 256),
            new Gemm(16, 36864, 12288), new Gemm(16, 12288, 49152));

    private RooflineChart() {
    }

    /** Sustained compute ceiling the engine's GEMM model tends to: peak x the family's GEMM fraction. */
    public static double sustainedFlopsPerSecond(Chip chip, Precision p) {
        return chip.peakFlopsPerSecond(p) * chip.family().gemmPeakFraction();
    }

    /** Series: datasheet roof, sustained roof, then the GEMM shapes (when any), each a (FLOP/byte, FLOP/s) curve. */
    public static XYSeriesCollection dataset(Chip chip, Precision p, List<Gemm> gemms) {
        XYSeriesCollection ds = new XYSeriesCollection();
        ds.addSeries(roof(DATASHEET, chip.peakFlopsPerSecond(p), chip.memoryBytesPerSecond()));
        ds.addSeries(roof(SUSTAINED, sustainedFlopsPerSecond(chip, p), chip.effectiveMemoryBytesPerSecond()));
        if (!gemms.isEmpty()) {
            GemmModel model = new GemmModel(chip);
            XYSeries s = new XYSeries(GEMMS, false, true);
            for (Gemm g : gemms) {
                s.add(g.intensity(p), model.achievedFlopsPerSecond(g.m(), g.n(), g.k(), p));
            }
            ds.addSeries(s);
        }
        return ds;
    }

    private static XYSeries roof(String key, double peakFlopsPerSecond, double bytesPerSecond) {
        XYSeries s = new XYSeries(key, true, false);
        double ridge = peakFlopsPerSecond / bytesPerSecond;
        double logMin = Math.log10(MIN_INTENSITY);
        double logMax = Math.log10(MAX_INTENSITY);
        for (int i = 0; i <= SAMPLES; i++) {
            double ai = Math.pow(10, logMin + (logMax - logMin) * i / SAMPLES);
            s.add(ai, Math.min(peakFlopsPerSecond, ai * bytesPerSecond));
        }
        if (ridge > MIN_INTENSITY && ridge < MAX_INTENSITY) {
            s.add(ridge, peakFlopsPerSecond);
        }
        return s;
    }

    /**
     * Roofs of one chip with operators from {@link FrontierOperators}: one point series per model (same shapes, one
     * colour each), no labels (the report's operator table names them).
     */
    public static XYSeriesCollection operatorDataset(Chip chip, Precision p,
                                                     List<FrontierOperators.Operator> operators) {
        XYSeriesCollection ds = dataset(chip, p, List.of());
        GemmModel model = new GemmModel(chip);
        java.util.Map<String, XYSeries> byModel = new java.util.LinkedHashMap<>();
        for (FrontierOperators.Operator o : operators) {
            Gemm g = o.shape();
            byModel.computeIfAbsent(o.model() + " GEMMs", k -> new XYSeries(k, false, true)).add(
                    g.intensity(o.precision()), model.achievedFlopsPerSecond(g.m(), g.n(), g.k(), o.precision()));
        }
        byModel.values().forEach(ds::addSeries);
        return ds;
    }

    /** The roofline with the GEMM shapes of {@link #dataset} labelled by their shape. */
    public static JFreeChart chart(XYSeriesCollection ds, Chip chip, Precision p, List<Gemm> gemms) {
        return chart(ds, chip, p, gemms.stream().map(Gemm::label).toList(), "Roofline: " + chip.name() + " ("
                + p.id() + ")");
    }

    /**
     * @param labels one label per point of series 2 (empty: no labels); further series are drawn in further colours
     */
    public static JFreeChart chart(XYSeriesCollection ds, Chip chip, Precision p, List<String> labels, String title) {
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer();
        // Each roof as one path and each point without an outline in its own fill colour: in SVG, a roof of 200
        // segments would otherwise be 200 elements and every point two.
        r.setDrawSeriesLineAsPath(true);
        r.setDrawOutlines(false);
        r.setSeriesPaint(0, new Color(0x999999));
        r.setSeriesStroke(0, new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f,
                new float[]{6f, 4f}, 0f));
        r.setSeriesShapesVisible(0, false);
        r.setSeriesPaint(1, Png.color(0));
        r.setSeriesStroke(1, new BasicStroke(2.5f));
        r.setSeriesShapesVisible(1, false);
        for (int s = 2; s < ds.getSeriesCount(); s++) {
            // Vermilion first (the GEMM shapes of the plain roofline), then the palette from its start.
            r.setSeriesPaint(s, Png.color(s == 2 ? 5 : s - 3));
            r.setSeriesLinesVisible(s, false);
            r.setSeriesShape(s, new Ellipse2D.Double(-5, -5, 10, 10));
        }
        LogAxis x = new PlainLogAxis("arithmetic intensity [FLOP/byte of DRAM traffic] (log scale)");
        x.setRange(MIN_INTENSITY, MAX_INTENSITY * 2);
        x.setNumberFormatOverride(new DecimalFormat("0.#"));
        x.setTickUnit(new NumberTickUnit(1));
        x.setMinorTickCount(9);
        x.setMinorTickMarksVisible(true);
        double peak = chip.peakFlopsPerSecond(p);
        LogAxis y = new PlainLogAxis("attainable " + p.id() + " throughput [TFLOP/s] (log scale)");
        y.setRange(MIN_INTENSITY * chip.effectiveMemoryBytesPerSecond() / 2, peak * 2);
        y.setNumberFormatOverride(new TeraFormat());
        y.setTickUnit(new NumberTickUnit(1));
        y.setMinorTickCount(9);
        y.setMinorTickMarksVisible(true);
        XYPlot plot = new XYPlot(ds, x, y, r);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xDDDDDD));
        plot.setRangeGridlinePaint(new Color(0xDDDDDD));
        if (ds.getSeriesCount() > 2 && !labels.isEmpty()) {
            Font f = new Font("SansSerif", Font.PLAIN, 10);
            XYSeries g = ds.getSeries(2);
            for (int i = 0; i < g.getItemCount(); i++) {
                XYTextAnnotation a = new XYTextAnnotation(" " + labels.get(i), g.getX(i).doubleValue(),
                        g.getY(i).doubleValue());
                a.setFont(f);
                a.setTextAnchor(i % 2 == 0 ? TextAnchor.TOP_LEFT : TextAnchor.BOTTOM_LEFT);
                plot.addAnnotation(a);
            }
        }
        JFreeChart chart = new JFreeChart(title, new Font("SansSerif", Font.BOLD, 16), plot, true);
        chart.addSubtitle(new TextTitle(String.format(Locale.ROOT, "datasheet %.0f TFLOP/s, %.2f TB/s; sustained "
                        + "%.0f TFLOP/s (x%.2f), %.2f TB/s (x%.2f); ridge at %.0f FLOP/byte", peak / 1e12,
                chip.memoryBytesPerSecond() / 1e12, sustainedFlopsPerSecond(chip, p) / 1e12,
                chip.family().gemmPeakFraction(), chip.effectiveMemoryBytesPerSecond() / 1e12,
                chip.family().dramFraction(), sustainedFlopsPerSecond(chip, p) / chip.effectiveMemoryBytesPerSecond()),
                new Font("SansSerif", Font.PLAIN, 12)));
        return chart;
    }

    /** Axis ticks in TFLOP/s. */
    private static final class TeraFormat extends java.text.NumberFormat {
        private static final long serialVersionUID = 1L;
        private final DecimalFormat inner = new DecimalFormat("0.###");

        @Override
        public StringBuffer format(double number, StringBuffer toAppendTo, java.text.FieldPosition pos) {
            return inner.format(number / 1e12, toAppendTo, pos);
        }

        @Override
        public StringBuffer format(long number, StringBuffer toAppendTo, java.text.FieldPosition pos) {
            return inner.format(number / 1e12, toAppendTo, pos);
        }

        @Override
        public Number parse(String source, java.text.ParsePosition parsePosition) {
            throw new UnsupportedOperationException();
        }
    }
}
