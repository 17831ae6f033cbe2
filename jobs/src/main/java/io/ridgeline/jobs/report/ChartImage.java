package io.ridgeline.jobs.report;

import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

import javax.imageio.ImageIO;

/**
 * Renders a chart as PNG or SVG through one drawing path: {@link JFreeChart#draw} onto a Graphics2D that is either a
 * raster image or JFreeSVG's {@link SVGGraphics2D}, so a chart is defined once and both files show the same drawing.
 */
public final class ChartImage {
    /** Output format, chosen by flag ({@code --png}, {@code --svg}). */
    public enum Format { PNG, SVG }

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private ChartImage() {
    }

    /** Writes the chart in the given format, creating the parent directory. */
    public static void write(JFreeChart chart, Path file, Format format, int widthPx, int heightPx)
            throws IOException {
        checkSize(widthPx, heightPx);
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (format == Format.SVG) {
            String svg = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    + svgElement(chart, widthPx, heightPx, "ridgeline-chart") + "\n";
            Files.writeString(file, svg, StandardCharsets.UTF_8);
            return;
        }
        BufferedImage image = new BufferedImage(widthPx, heightPx, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        try {
            g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
            draw(chart, g, widthPx, heightPx);
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IllegalStateException("no PNG writer in this JVM");
        }
    }

    /**
     * An {@code <svg>} element for inlining in HTML: fixed width and height, a viewBox so CSS can scale it, and a
     * definitions prefix unique to {@code id} (clip paths of two charts in one page must not share ids).
     */
    public static String svgElement(JFreeChart chart, int widthPx, int heightPx, String id) {
        checkSize(widthPx, heightPx);
        SVGGraphics2D g = new SVGGraphics2D(widthPx, heightPx);
        g.setDefsKeyPrefix(id + "-");
        // A tenth of a pixel is below what a screen shows; full doubles would triple the file.
        g.setGeomDoubleConverter(ChartImage::oneDecimal);
        g.setTransformDoubleConverter(ChartImage::oneDecimal);
        draw(chart, g, widthPx, heightPx);
        return g.getSVGElement(id, true, new ViewBox(0, 0, widthPx, heightPx), null, null);
    }

    private static void draw(JFreeChart chart, Graphics2D g, int widthPx, int heightPx) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.draw(g, new Rectangle2D.Double(0, 0, widthPx, heightPx));
    }

    private static void checkSize(int widthPx, int heightPx) {
        if (widthPx < 100 || heightPx < 100 || widthPx > 10_000 || heightPx > 10_000) {
            throw new IllegalArgumentException("chart size must be 100..10000 px: " + widthPx + "x" + heightPx);
        }
    }

    /** Coordinates to a tenth of a pixel, without a trailing ".0". */
    static String oneDecimal(double v) {
        double r = Math.rint(v * 10) / 10;
        if (r == Math.rint(r) && Math.abs(r) < 1e15) {
            return Long.toString((long) r);
        }
        return String.format(Locale.ROOT, "%.1f", r);
    }
}
