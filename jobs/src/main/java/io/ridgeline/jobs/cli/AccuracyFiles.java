package io.ridgeline.jobs.cli;

import io.ridgeline.engine.calibration.AccuracyDocument;
import io.ridgeline.engine.calibration.FitRecipe;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code validate --markdown FILE [--intervals FILE]}: the accuracy document and the prediction intervals, both from
 * one replay of the bundled fit recipe over the shipped catalogues.
 */
final class AccuracyFiles {
    @Option(names = "--markdown", paramLabel = "FILE", description = "Also write the accuracy report with in-sample "
            + "and leave-one-source-out errors (docs/ACCURACY.md; replays catalog/fits.yaml once per fitted source).")
    Path markdown;
    @Option(names = "--intervals", paramLabel = "FILE", description = "With --markdown: also write the prediction "
            + "intervals of its held-out residuals (engine/src/main/resources/catalog/intervals.csv).")
    Path intervals;

    /** Refuses a calibration profile beside them (they document the shipped catalogues) and --intervals alone. */
    void check(Path calibration) {
        if ((markdown != null || intervals != null) && calibration != null) {
            throw new InvalidInputException(InputError.of("command line", "--calibration", "no profile with "
                    + "--markdown/--intervals (they document the shipped catalogues)", calibration.toString()));
        }
        if (intervals != null && markdown == null) {
            throw new InvalidInputException(InputError.of("command line", "--intervals", "--markdown as well "
                    + "(both come from one replay of the fit recipe)", "--intervals alone"));
        }
    }

    /** Writes the requested files for these case files (nothing without --markdown), naming each on stderr. */
    void write(List<Path> cases) throws IOException {
        if (markdown == null) {
            return;
        }
        AccuracyDocument doc = AccuracyDocument.generate(Path.of(""), cases.stream().map(Path::toString).toList(),
                FitRecipe.bundled());
        Files.writeString(markdown, doc.markdown(), StandardCharsets.UTF_8);
        System.err.println("wrote " + markdown);
        if (intervals != null) {
            Files.writeString(intervals, doc.intervalsCsv(), StandardCharsets.UTF_8);
            System.err.println("wrote " + intervals);
        }
    }
}
