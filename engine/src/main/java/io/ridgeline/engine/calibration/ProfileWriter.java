package io.ridgeline.engine.calibration;

import java.util.List;
import java.util.Locale;

/**
 * Writes a {@link Calibration.Result} as a calibration profile (YAML) that {@link CalibrationProfile#read} reads back:
 * per parameter its value, bounds, unit and meaning; the cases it was fitted on (files, selection, count); how; the
 * errors before and after, in-sample and cross-validated; the intervals; the code version. Deterministic text.
 */
public final class ProfileWriter {
    private ProfileWriter() {
    }

    /**
     * @param files       the case files as given on the command line
     * @param codeVersion the code that fitted it (jobs {@code Versions.codeVersion()})
     * @param command     the command line, for the record
     */
    public static String yaml(Calibration.Result r, List<String> files, String codeVersion, String command) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Ridgeline calibration profile, written by `ridgeline calibrate`. A run applies it with --calibration\n")
                .append("# (eval, validate): each parameter's value replaces the catalogue value at that path (units\n")
                .append("# are the catalogue files'). Everything else is the record of how the values were fitted.\n");
        sb.append("calibration:\n");
        sb.append("  code_version: ").append(q(codeVersion)).append('\n');
        sb.append("  command: ").append(q(command)).append('\n');
        CaseSelection s = r.request().selection();
        sb.append("  cases:\n");
        sb.append("    files: ").append(list(files)).append('\n');
        sb.append("    selection: {gpu: ").append(list(s.gpus())).append(", framework: ").append(list(s.frameworks()))
                .append(", phase: ").append(list(s.phases())).append(", metric: ").append(list(s.metrics()))
                .append("}\n");
        sb.append("    count: ").append(r.cases().length).append('\n');
        sb.append("    excluded: ").append(r.excluded().size())
                .append("  # selected but not scored ok with the constants in force (unsupported or infeasible)\n");
        sb.append("  fit:\n");
        sb.append("    method: levenberg-marquardt  # Apache Commons Math, bounds by the sine transform\n");
        sb.append("    residual: relative_error  # (predicted - measured) / measured\n");
        sb.append("    loss: ").append(r.request().loss().id()).append('\n');
        sb.append("    weighting: ").append(r.request().weighting().id()).append('\n');
        sb.append("    penalty: ").append(Double.isInfinite(r.fit().penalty()) ? ".inf" : num(r.fit().penalty()))
                .append("  # ridge strength towards the catalogue values")
                .append(r.request().penalties().length > 1
                        ? ", chosen by leave-one-source-out cross-validation (one-standard-error rule)\n" : "\n");
        sb.append(String.format(Locale.ROOT, "    iterations: %d%n", r.fit().iterations()));
        if (!r.fit().note().isEmpty()) {
            sb.append("    note: ").append(q(r.fit().note())).append('\n');
        }
        sb.append("  parameters:\n");
        FitResult f = r.fit();
        for (int j = 0; j < f.parameters().size(); j++) {
            Parameter p = f.parameters().get(j);
            sb.append("    - parameter: ").append(p.path()).append('\n');
            sb.append("      value: ").append(num(f.value(j))).append('\n');
            sb.append("      before: ").append(num(f.start(j))).append('\n');
            sb.append("      lower: ").append(num(p.lower())).append('\n');
            sb.append("      upper: ").append(num(p.upper())).append('\n');
            sb.append("      unit: ").append(q(p.unit())).append('\n');
            sb.append("      fitted: ").append(f.fitted(j)).append('\n');
            sb.append("      meaning: ").append(q(p.kind().meaning())).append('\n');
        }
        sb.append("  error:\n");
        sb.append(String.format(Locale.ROOT, "    in_sample: {before_mean_abs_error_pct: %s, after_mean_abs_error_pct: "
                + "%s, cases: %d}%n", num(r.beforeErrorPct()), num(r.afterErrorPct()), r.cases().length));
        CrossValidation.Result cv = r.crossValidation();
        sb.append("    cross_validation:\n");
        sb.append("      method: ").append(CrossValidation.METHOD).append('\n');
        sb.append("      mean_abs_error_pct: ").append(num(cv.meanAbsErrorPct())).append('\n');
        sb.append("      folds:\n");
        for (CrossValidation.Fold fold : cv.folds()) {
            sb.append("        - {held_out: ").append(q(fold.heldOut())).append(", cases: ").append(fold.cases())
                    .append(", mean_abs_error_pct: ").append(num(fold.meanAbsErrorPct())).append("}\n");
        }
        IntervalModel m = r.intervals();
        sb.append("  intervals:  # ln(predicted time / measured time) of the held-out cases: random-effects prediction "
                + "interval over sources\n");
        sb.append("    coverage: ").append(num(m.coverage())).append('\n');
        sb.append("    groups:").append(m.groups().isEmpty() ? " []\n" : "\n");
        for (IntervalModel.Group g : m.groups()) {
            sb.append("      - {output: ").append(g.output().id()).append(", stack: ").append(q(g.stack()))
                    .append(", family: ").append(q(g.family())).append(", residuals: ").append(g.residuals())
                    .append(", sources: ").append(g.sources()).append(", log_ratio_center: ")
                    .append(num(g.logRatioCenter())).append(", between_source_sd: ").append(num(g.betweenSourceSd()))
                    .append(", within_source_sd: ").append(num(g.withinSourceSd()))
                    .append(", log_ratio_low: ").append(num(g.logRatioLow()))
                    .append(", log_ratio_high: ").append(num(g.logRatioHigh())).append("}\n");
        }
        return sb.toString();
    }

    /** Six significant digits: a profile read back reproduces the fit's predictions to ~1e-6. */
    static String num(double v) {
        if (Double.isNaN(v)) {
            return ".nan";
        }
        return RecipeRun.text(v, 6);
    }

    private static String q(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String list(List<String> values) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.size(); i++) {
            sb.append(i == 0 ? "" : ", ").append(q(values.get(i)));
        }
        return sb.append(']').toString();
    }
}
