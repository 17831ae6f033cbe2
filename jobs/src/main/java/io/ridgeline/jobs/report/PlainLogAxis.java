package io.ridgeline.jobs.report;

import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.LogTick;
import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.ui.RectangleEdge;

import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.text.AttributedCharacterIterator;
import java.util.ArrayList;
import java.util.List;

/**
 * A log axis whose tick labels are plain strings. JFreeChart's {@link LogAxis} draws labels as attributed strings
 * (for 10ⁿ superscripts), which an SVG Graphics2D can only emit as glyph outlines: a roofline's labels became ~1,100
 * paths and half a megabyte. Every Ridgeline log axis has a number format, so no label needs attributes; as plain
 * text they are {@code <text>} elements in SVG and look the same in PNG.
 */
final class PlainLogAxis extends LogAxis {
    private static final long serialVersionUID = 1L;

    PlainLogAxis(String label) {
        super(label);
    }

    @Override
    protected List refreshTicksHorizontal(Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
        return plain(super.refreshTicksHorizontal(g2, dataArea, edge));
    }

    @Override
    protected List refreshTicksVertical(Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
        return plain(super.refreshTicksVertical(g2, dataArea, edge));
    }

    @SuppressWarnings("rawtypes")
    private static List plain(List ticks) {
        List<Object> out = new ArrayList<>(ticks.size());
        for (Object t : ticks) {
            if (t instanceof LogTick lt) {
                out.add(new NumberTick(lt.getTickType(), lt.getValue(), text(lt), lt.getTextAnchor(),
                        lt.getRotationAnchor(), lt.getAngle()));
            } else {
                out.add(t);
            }
        }
        return out;
    }

    private static String text(LogTick t) {
        if (t.getAttributedLabel() == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        AttributedCharacterIterator it = t.getAttributedLabel().getIterator();
        for (char c = it.first(); c != AttributedCharacterIterator.DONE; c = it.next()) {
            sb.append(c);
        }
        return sb.toString();
    }
}
