package io.ridgeline.jobs.cli;

import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.jobs.report.RooflineChart;
import org.jfree.data.xy.XYSeriesCollection;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code ridgeline plot roofline}: a catalogue chip's roofline with GEMM shapes placed by the engine. */
@Command(name = "roofline", mixinStandardHelpOptions = true,
        description = "Attainable FLOP/s against arithmetic intensity for a catalogue chip, datasheet and "
                + "sustained ceilings, with GEMM shapes placed by the engine's GEMM model.")
public final class PlotRoofline implements Callable<Integer> {
    @Mixin
    PlotOutput output = new PlotOutput();

    @Option(names = "--gpu", required = true, description = "Chip id from the catalogue, e.g. h100-sxm.")
    String gpu;

    @Option(names = "--precision", defaultValue = "bf16", description = "Math precision (default: "
            + "${DEFAULT-VALUE}).")
    String precision;

    @Option(names = "--gemm", split = ",", description = "GEMM shapes MxNxK to mark, or 'none' (default: a "
            + "GPT-3 175B layer's GEMMs at 4096 and 16 tokens, and squares).")
    List<String> gemm;

    @Override
    public Integer call() throws IOException {
        output.checkSize();
        Chip chip = HardwareCatalog.bundled().chip(gpu);
        Precision p = Precision.parse(precision);
        List<InputError> errors = new ArrayList<>();
        List<String> precisions = Arrays.stream(Precision.values()).map(Precision::id).toList();
        if (p == null) {
            errors.add(InputError.of("--precision", "precision", Names.expectedOneOf(precision, precisions),
                    "'" + precision + "'"));
        } else if (!chip.supports(p)) {
            List<String> native_ = Arrays.stream(Precision.values()).filter(chip::supports).map(Precision::id)
                    .toList();
            errors.add(InputError.of("--precision", "precision", "a format " + gpu + " runs natively: one of "
                    + native_, "'" + precision + "'"));
        }
        List<RooflineChart.Gemm> shapes = new ArrayList<>();
        if (gemm == null) {
            shapes.addAll(RooflineChart.DEFAULT_GEMMS);
        } else if (!(gemm.size() == 1 && gemm.get(0).equalsIgnoreCase("none"))) {
            for (int i = 0; i < gemm.size(); i++) {
                RooflineChart.Gemm g = RooflineChart.Gemm.parse(gemm.get(i));
                if (g == null) {
                    errors.add(InputError.of("--gemm", "gemm[" + i + "]", "MxNxK with positive integers, e.g. "
                            + "4096x4096x4096", "'" + gemm.get(i) + "'"));
                } else {
                    shapes.add(g);
                }
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        XYSeriesCollection ds = RooflineChart.dataset(chip, p, shapes);
        String wrote = output.write(RooflineChart.chart(ds, chip, p, shapes), "roofline", gpu + "-" + p.id());
        System.out.printf("wrote %s, %d series)%n", wrote, ds.getSeriesCount());
        for (int i = 0; i < shapes.size(); i++) {
            RooflineChart.Gemm g = shapes.get(i);
            System.out.printf(Locale.ROOT, "  %-20s %8.1f FLOP/byte  %7.1f TFLOP/s%n", g.label(),
                    g.intensity(p), ds.getSeries(2).getY(i).doubleValue() / 1e12);
        }
        return 0;
    }
}
