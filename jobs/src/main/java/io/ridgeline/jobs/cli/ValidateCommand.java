package io.ridgeline.jobs.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.engine.calibration.AccuracyDocument;
import io.ridgeline.engine.calibration.FitRecipe;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.validation.AccuracyReport;
import io.ridgeline.engine.validation.CaseOutcome;
import io.ridgeline.engine.validation.ValidationSummary;
import io.ridgeline.engine.validation.Validator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code ridgeline validate}: the engine against measured cases, per case and summarised. */
@Command(name = "validate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Score the engine against measured cases (validation/ format).",
                "Prints each case's predicted and measured value and signed error, then mean and max |error| per "
                        + "file, source, phase, metric and GPU. Unsupported cases are listed with the reason."})
public final class ValidateCommand implements Callable<Integer> {
    @Option(names = "--cases", arity = "1..*", required = true, paramLabel = "FILE", description = "Case CSV files.")
    List<Path> cases;
    @Option(names = "--json", description = "Print JSON: {cases:[...], summary:{...}}.")
    boolean json;
    @Option(names = "--markdown", paramLabel = "FILE", description = "Also write the accuracy report with in-sample "
            + "and leave-one-source-out errors (docs/ACCURACY.md; replays catalog/fits.yaml once per fitted source).")
    Path markdown;
    @Option(names = "--intervals", paramLabel = "FILE", description = "With --markdown: also write the prediction "
            + "intervals of its held-out residuals (engine/src/main/resources/catalog/intervals.csv).")
    Path intervals;
    @Option(names = "--quiet", description = "Summary only (no per-case lines).")
    boolean quiet;
    @Mixin
    CalibrationOption calibration = new CalibrationOption();

    @Override
    public Integer call() throws IOException {
        if ((markdown != null || intervals != null) && calibration.file != null) {
            throw new InvalidInputException(InputError.of("command line", "--calibration", "no profile with "
                    + "--markdown/--intervals (they document the shipped catalogues)", calibration.file.toString()));
        }
        if (intervals != null && markdown == null) {
            throw new InvalidInputException(InputError.of("command line", "--intervals", "--markdown as well "
                    + "(both come from one replay of the fit recipe)", "--intervals alone"));
        }
        List<CaseOutcome> outcomes = new Validator(calibration.catalogs().hardware(), calibration.catalogs().stacks())
                .run(cases);
        ValidationSummary summary = ValidationSummary.of(outcomes);
        if (json) {
            System.out.println(toJson(outcomes, summary));
        } else {
            System.out.print(AccuracyReport.text(outcomes, summary, !quiet));
        }
        if (markdown != null) {
            AccuracyDocument doc = AccuracyDocument.generate(Path.of(""), cases.stream().map(Path::toString)
                    .toList(), FitRecipe.bundled());
            Files.writeString(markdown, doc.markdown(), StandardCharsets.UTF_8);
            System.err.println("wrote " + markdown);
            if (intervals != null) {
                Files.writeString(intervals, doc.intervalsCsv(), StandardCharsets.UTF_8);
                System.err.println("wrote " + intervals);
            }
        }
        return 0;
    }

    static String toJson(List<CaseOutcome> outcomes, ValidationSummary s) throws IOException {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        ArrayNode arr = root.putArray("cases");
        for (CaseOutcome o : outcomes) {
            ObjectNode c = arr.addObject();
            c.put("case_id", o.caseId());
            c.put("status", o.status());
            putNumber(c, "predicted", o.predicted());
            c.put("measured", o.measured());
            putNumber(c, "error_pct", o.errorPct());
            c.put("reason", o.reason());
            c.put("note", o.note());
        }
        ObjectNode sum = root.putObject("summary");
        sum.put("count", s.count());
        sum.put("supported", s.supported());
        putNumber(sum, "mean_abs_error_pct", s.meanAbsErrorPct());
        putNumber(sum, "max_abs_error_pct", s.maxAbsErrorPct());
        ArrayNode groups = sum.putArray("groups");
        for (ValidationSummary.Group g : s.groups()) {
            ObjectNode n = groups.addObject();
            n.put("key", g.key());
            n.put("count", g.count());
            putNumber(n, "mean_abs_error_pct", g.meanAbsErrorPct());
            putNumber(n, "max_abs_error_pct", g.maxAbsErrorPct());
        }
        return mapper.writeValueAsString(root);
    }

    private static void putNumber(ObjectNode n, String key, double v) {
        if (Double.isNaN(v)) {
            n.putNull(key);
        } else {
            n.put(key, v);
        }
    }
}
