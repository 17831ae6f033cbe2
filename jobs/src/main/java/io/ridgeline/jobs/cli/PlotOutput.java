package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.report.ChartImage;
import org.jfree.chart.JFreeChart;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Where and how large every plot is written: {@code --png}, {@code --svg}, {@code --width}, {@code --height}. */
final class PlotOutput {
    @Option(names = "--png", description = "PNG file (default: plots/<chart>-<run>.png when --svg is not given).")
    Path png;

    @Option(names = "--svg", description = "SVG file: the same drawing as the PNG, as vector graphics.")
    Path svg;

    @Option(names = "--width", defaultValue = "1200", description = "Width in pixels (default: ${DEFAULT-VALUE}).")
    int width;

    @Option(names = "--height", defaultValue = "800", description = "Height in pixels (default: "
            + "${DEFAULT-VALUE}).")
    int height;

    void checkSize() {
        List<InputError> errors = new ArrayList<>();
        for (Object[] d : new Object[][]{{"--width", width}, {"--height", height}}) {
            int v = (Integer) d[1];
            if (v < 100 || v > 10_000) {
                errors.add(InputError.of((String) d[0], ((String) d[0]).substring(2), "pixels in [100, 10000]",
                        String.valueOf(v)));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }

    /**
     * Writes the chart to every requested file (the default PNG when none was asked for) and returns what to print,
     * e.g. {@code plots/frontier-r1.png (1200x800 px}.
     */
    String write(JFreeChart chart, String name, String id) throws IOException {
        List<String> files = new ArrayList<>();
        Path p = png != null || svg != null ? png : Path.of("plots", name + "-" + id + ".png");
        if (p != null) {
            ChartImage.write(chart, p, ChartImage.Format.PNG, width, height);
            files.add(p.toString());
        }
        if (svg != null) {
            ChartImage.write(chart, svg, ChartImage.Format.SVG, width, height);
            files.add(svg.toString());
        }
        return String.join(" and ", files) + " (" + width + "x" + height + " px";
    }
}
