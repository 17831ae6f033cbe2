package io.ridgeline.jobs.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.engine.hardware.Chip;
import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.hardware.Precision;
import io.ridgeline.engine.ops.GemmModel;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.sweep.PointLoader;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** {@code eval --phase gemm}: one GEMM's time and achieved FLOP/s on a chip (a microbenchmark, not a sweep phase). */
final class GemmEval {
    private static final String COMMAND_LINE = PointLoader.COMMAND_LINE;

    private GemmEval() {
    }

    static int run(HardwareCatalog hw, String chipId, String m, String n, String k, String precision, boolean json) {
        List<InputError> errors = new ArrayList<>();
        Chip chip = null;
        if (chipId == null || !hw.hasChip(chipId)) {
            errors.add(InputError.of(COMMAND_LINE, "--chip", Names.expectedOneOf(chipId == null ? ""
                    : chipId, hw.chips().keySet()), chipId == null ? "nothing" : "'" + chipId + "'"));
        } else {
            chip = hw.chip(chipId);
        }
        int rows = dimension(m, "-m", errors);
        int cols = dimension(n, "-n", errors);
        int inner = dimension(k, "-k", errors);
        Precision pr = Precision.parse(precision == null ? "bf16" : precision);
        if (pr == null) {
            errors.add(InputError.of(COMMAND_LINE, "--precision", Names.expectedOneOf(precision,
                    Arrays.stream(Precision.values()).map(Precision::id).toList()), "'" + precision + "'"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        double seconds = new GemmModel(chip).seconds(rows, cols, inner, pr);
        double flops = 2.0 * rows * cols * inner / seconds;
        if (json) {
            ObjectNode root = new ObjectMapper().createObjectNode();
            root.put("chip", chip.id());
            root.put("m", rows);
            root.put("n", cols);
            root.put("k", inner);
            root.put("precision", pr.id());
            root.put("seconds", seconds);
            root.put("tflops", flops / 1e12);
            System.out.println(root.toPrettyString());
        } else {
            System.out.printf(Locale.ROOT, "GEMM %d x %d x %d %s on %s: %.4g s, %.1f TFLOP/s (%.1f%% of dense peak)%n",
                    rows, cols, inner, pr.id(), chip.id(), seconds, flops / 1e12,
                    flops / chip.peakFlopsPerSecond(pr) * 100);
        }
        return 0;
    }

    private static int dimension(String text, String flag, List<InputError> errors) {
        try {
            int v = text == null ? 0 : Integer.parseInt(text);
            if (v >= 1) {
                return v;
            }
        } catch (NumberFormatException ignored) {
            // reported below
        }
        errors.add(InputError.of(COMMAND_LINE, flag, "a positive integer", text == null ? "nothing"
                : "'" + text + "'"));
        return 1;
    }
}
