package io.ridgeline.jobs.report;

import org.jfree.chart.JFreeChart;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;

/** One look for every Ridgeline chart (palette, SI tick labels), and PNG files of them. */
public final class Png {
    /** Colour-blind-safe palette (Okabe and Ito 2008), in series order. */
    static final Color[] PALETTE = {new Color(0x0072B2), new Color(0xE69F00), new Color(0x009E73),
            new Color(0xCC79A7), new Color(0x56B4E9), new Color(0xD55E00), new Color(0xF0E442), new Color(0x999999),
            new Color(0x000000), new Color(0x882255)};

    private Png() {
    }

    /** A PNG of the chart (the same drawing as its SVG: {@link ChartImage}). */
    public static void write(JFreeChart chart, Path file, int widthPx, int heightPx) throws IOException {
        ChartImage.write(chart, file, ChartImage.Format.PNG, widthPx, heightPx);
    }

    /** Tick labels with SI suffixes: 1.26M, 850k, 3G. */
    static final class SiFormat extends java.text.NumberFormat {
        private static final long serialVersionUID = 1L;
        private static final String[] SUFFIX = {"", "k", "M", "G", "T", "P"};

        @Override
        public StringBuffer format(double v, StringBuffer to, java.text.FieldPosition pos) {
            int e = 0;
            double x = Math.abs(v);
            while (x >= 1000 && e < SUFFIX.length - 1) {
                x /= 1000;
                e++;
            }
            // Below 1, keep two significant digits (0.0025 s ticks must not all read "0"): 0.##, 0.###, ...
            String small = x > 0 && x < 1 ? "0." + "#".repeat(Math.min(12, 1 - (int) Math.floor(Math.log10(x))))
                    : "0.##";
            String digits = new java.text.DecimalFormat(x >= 100 ? "0" : x >= 10 ? "0.#" : small,
                    java.text.DecimalFormatSymbols.getInstance(java.util.Locale.ROOT)).format(x);
            return to.append(v < 0 ? "-" : "").append(digits).append(SUFFIX[e]);
        }

        @Override
        public StringBuffer format(long v, StringBuffer to, java.text.FieldPosition pos) {
            return format((double) v, to, pos);
        }

        @Override
        public Number parse(String source, java.text.ParsePosition pos) {
            throw new UnsupportedOperationException();
        }
    }

    static Color color(int i) {
        return PALETTE[i % PALETTE.length];
    }
}
