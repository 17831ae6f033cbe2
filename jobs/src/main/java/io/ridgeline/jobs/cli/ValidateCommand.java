package io.ridgeline.jobs.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.engine.validation.AccuracyReport;
import io.ridgeline.engine.validation.CaseOutcome;
import io.ridgeline.engine.validation.ValidationSummary;
import io.ridgeline.engine.validation.Validator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code ridgeline validate}: the engine against measured cases, per case and summarised. */
@Command(name = "validate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Score the engine against measured cases (validation/ format).",
                "Prints each case's predicted and measured value and signed error, then mean and max |error| per "
                        + "file, source, phase, metric and GPU. Unsupported cases are listed with the reason.",
                "--json prints {cases:[...], summary:{...}}."})
public final class ValidateCommand implements Callable<Integer> {
    @Option(names = "--cases", arity = "1..*", required = true, paramLabel = "FILE", description = "Case CSV files.")
    List<Path> cases;
    @Mixin
    JsonOutput json = new JsonOutput();
    @Option(names = "--quiet", description = "Summary only (no per-case lines).")
    boolean quiet;
    @Mixin
    CalibrationOption calibration = new CalibrationOption();
    @Mixin
    AccuracyFiles accuracy = new AccuracyFiles();

    @Override
    public Integer call() throws IOException {
        accuracy.check(calibration.file);
        List<CaseOutcome> outcomes = new Validator(calibration.catalogs().hardware(), calibration.catalogs().stacks())
                .run(cases);
        ValidationSummary summary = ValidationSummary.of(outcomes);
        if (json.on) {
            System.out.println(toJson(outcomes, summary));
        } else {
            System.out.print(AccuracyReport.text(outcomes, summary, !quiet));
        }
        accuracy.write(cases);
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
