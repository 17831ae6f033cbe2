package io.ridgeline.jobs.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.ridgeline.engine.calibration.CaseScorer;
import io.ridgeline.engine.calibration.CaseSelection;
import io.ridgeline.engine.calibration.Calibration;
import io.ridgeline.engine.calibration.CrossValidation;
import io.ridgeline.engine.calibration.FitResult;
import io.ridgeline.engine.calibration.Fitter;
import io.ridgeline.engine.calibration.IntervalModel;
import io.ridgeline.engine.calibration.ProfileWriter;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.jobs.sweep.Versions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code ridgeline calibrate}: fit catalogue constants to measured cases, cross-validate, write a profile. */
@Command(name = "calibrate", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Fit the model's catalogue constants to measured cases (validation/ format) by bounded "
                + "least squares on relative error, cross-validate by leaving each source out, and write a "
                + "calibration profile that eval and validate apply with --calibration.",
                "With --recipe: replay a fit recipe (catalog/fits.yaml) and print the values the catalogues ship; "
                        + "--write puts them into the catalogue files (scripts/fit-catalog).",
                "--json prints {parameters:[...], in_sample:{...}, cross_validation:{...}} (docs/CALIBRATION.md)."})
public final class CalibrateCommand implements Callable<Integer> {
    static final List<String> PHASES = List.of("training", "inference", "gemm", "memory");

    @Option(names = "--cases", arity = "1..*", paramLabel = "FILE", description = "Case CSV files.")
    List<Path> cases;
    @Option(names = "--gpu", split = ",", paramLabel = "ID", description = "Only cases on these GPUs.")
    List<String> gpus = new ArrayList<>();
    @Option(names = "--framework", split = ",", paramLabel = "NAME",
            description = "Only cases of these frameworks (a name without @version matches every version).")
    List<String> frameworks = new ArrayList<>();
    @Option(names = "--phase", split = ",", paramLabel = "PHASE", description = "training, inference, gemm, memory.")
    List<String> phases = new ArrayList<>();
    @Option(names = "--metric", split = ",", paramLabel = "METRIC", description = "Only cases of these metrics.")
    List<String> metrics = new ArrayList<>();
    @Option(names = "--parameters", split = ",", paramLabel = "PATH",
            description = "Catalogue paths to fit (default: the efficiencies and host costs of the chip families, "
                    + "networks and stacks the cases use), e.g. families.ampere.gemm_peak_fraction.")
    List<String> parameters = new ArrayList<>();
    @Option(names = "--weighting", defaultValue = "case", paramLabel = "case|source",
            description = "Every case counts the same (default), or every source does.")
    String weighting;
    @Option(names = "--loss", defaultValue = "linear", paramLabel = "linear|soft_l1|absolute",
            description = "Least squares (default), the robust soft-L1 loss (10%% scale), or mean absolute relative "
                    + "error (the serving fits of catalog/fits.yaml).")
    String loss;
    @Option(names = "--penalty", defaultValue = "auto", paramLabel = "auto|LAMBDA",
            description = "Ridge strength pulling each fitted value towards its catalogue value (lambda per case, on "
                    + "the deviation as a fraction of the parameter's range; inf keeps the catalogue): auto "
                    + "(default) chooses it from 0, 0.1, 1, 10, inf by leave-one-source-out cross-validation on the "
                    + "fitted cases, again inside every cross-validation fold.")
    String penalty;
    @Option(names = "--coverage", defaultValue = "0.8", description = "Coverage of the prediction intervals.")
    double coverage;
    @Option(names = "--out", paramLabel = "PROFILE.yaml", description = "Where to write the profile.")
    Path out;
    @Mixin
    JsonOutput json = new JsonOutput();
    @Option(names = "--recipe", paramLabel = "FITS.yaml", description = "Replay a fit recipe instead.")
    Path recipe;
    @Option(names = "--write", description = "With --recipe: write the values into the catalogue files.")
    boolean write;
    @Mixin
    CalibrationOption base = new CalibrationOption();

    @Override
    public Integer call() throws IOException {
        if (recipe != null) {
            return RecipeCommand.run(recipe, write, json.on, System.out);
        }
        List<InputError> errors = new ArrayList<>();
        if (cases == null || cases.isEmpty()) {
            errors.add(InputError.of("command line", "--cases", "one or more case files", "none"));
        }
        if (out == null) {
            errors.add(InputError.of("command line", "--out", "the profile file to write", "none"));
        }
        Fitter.Weighting w = choice(Fitter.Weighting.class, weighting, "--weighting", errors);
        Fitter.Loss l = choice(Fitter.Loss.class, loss, "--loss", errors);
        double[] penalties = penalties(penalty, errors);
        if (!(coverage > 0 && coverage < 1)) {
            errors.add(InputError.of("command line", "--coverage", "a fraction in (0, 1)", Double.toString(coverage)));
        }
        for (String p : phases) {
            if (!PHASES.contains(p)) {
                errors.add(InputError.of("command line", "--phase", Names.expectedOneOf(p, PHASES), "'" + p + "'"));
            }
        }
        for (String g : gpus) {
            if (!base.catalogs().hardware().hasChip(g)) {
                errors.add(InputError.of("command line", "--gpu", Names.expectedOneOf(g,
                        base.catalogs().hardware().chips().keySet()), "'" + g + "'"));
            }
        }
        for (String f : frameworks) {
            try {
                base.catalogs().stacks().resolve(f, "--framework");
            } catch (InvalidInputException e) {
                errors.addAll(e.errors());
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        CaseScorer scorer = CaseScorer.read(cases);
        CaseSelection selection = new CaseSelection(gpus, frameworks, phases, metrics);
        if (scorer.select(selection).length == 0) {
            throw new InvalidInputException(InputError.of("command line", "selection", "at least one case of "
                    + cases + " matching " + selection.describe(), "none"));
        }
        long t0 = System.nanoTime();
        Calibration.Result r = Calibration.run(scorer, new Calibration.Request(selection, parameters, w, l,
                base.profile() == null ? io.ridgeline.engine.spec.CatalogOverrides.NONE : base.profile().overrides(),
                coverage, penalties));
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (r.cases().length == 0) {
            throw new InvalidInputException(InputError.of("command line", "selection", "cases the engine scores ok",
                    r.excluded().size() + " selected cases, none scored ok (unsupported or infeasible)"));
        }
        List<String> files = cases.stream().map(Path::toString).toList();
        Files.writeString(out, ProfileWriter.yaml(r, files, Versions.codeVersion(), "ridgeline calibrate "
                + String.join(" ", commandLine())), StandardCharsets.UTF_8);
        if (json.on) {
            System.out.println(toJson(r));
        } else {
            print(scorer, r, seconds, System.out);
        }
        System.err.println("wrote " + out);
        return 0;
    }

    private List<String> commandLine() {
        List<String> a = new ArrayList<>();
        a.add("--cases");
        cases.forEach(c -> a.add(c.toString()));
        add(a, "--gpu", gpus);
        add(a, "--framework", frameworks);
        add(a, "--phase", phases);
        add(a, "--metric", metrics);
        add(a, "--parameters", parameters);
        a.add("--weighting");
        a.add(weighting);
        a.add("--loss");
        a.add(loss);
        a.add("--penalty");
        a.add(penalty);
        return a;
    }

    /** "auto": the default grid; otherwise one strength (a number >= 0 or "inf"). */
    static double[] penalties(String text, List<InputError> errors) {
        if (text.equalsIgnoreCase("auto")) {
            return Calibration.PENALTY_GRID;
        }
        try {
            double v = text.equalsIgnoreCase("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(text);
            if (v >= 0) {
                return new double[]{v};
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        errors.add(InputError.of("command line", "--penalty", "auto, inf or a number >= 0", "'" + text + "'"));
        return Calibration.PENALTY_GRID;
    }

    private static void add(List<String> a, String flag, List<String> values) {
        if (!values.isEmpty()) {
            a.add(flag);
            a.add(String.join(",", values));
        }
    }

    static <E extends Enum<E>> E choice(Class<E> type, String text, String flag, List<InputError> errors) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equalsIgnoreCase(text)) {
                return e;
            }
        }
        List<String> ids = new ArrayList<>();
        for (E e : type.getEnumConstants()) {
            ids.add(e.name().toLowerCase(Locale.ROOT));
        }
        errors.add(InputError.of("command line", flag, Names.expectedOneOf(text, ids), "'" + text + "'"));
        return null;
    }

    /** The shape issue 11 specifies, exactly. */
    static String toJson(Calibration.Result r) throws IOException {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        ArrayNode ps = root.putArray("parameters");
        FitResult f = r.fit();
        for (int j = 0; j < f.parameters().size(); j++) {
            ObjectNode p = ps.addObject();
            p.put("name", f.parameters().get(j).path());
            p.put("unit", f.parameters().get(j).unit());
            p.put("before", f.start(j));
            p.put("after", f.value(j));
            p.put("lower", f.parameters().get(j).lower());
            p.put("upper", f.parameters().get(j).upper());
        }
        ObjectNode in = root.putObject("in_sample");
        in.put("before_mean_abs_error_pct", r.beforeErrorPct());
        in.put("after_mean_abs_error_pct", r.afterErrorPct());
        in.put("cases", r.cases().length);
        ObjectNode cv = root.putObject("cross_validation");
        cv.put("method", CrossValidation.METHOD);
        cv.put("mean_abs_error_pct", r.crossValidation().meanAbsErrorPct());
        ArrayNode folds = cv.putArray("folds");
        for (CrossValidation.Fold fold : r.crossValidation().folds()) {
            ObjectNode n = folds.addObject();
            n.put("held_out", fold.heldOut());
            n.put("cases", fold.cases());
            n.put("mean_abs_error_pct", fold.meanAbsErrorPct());
        }
        return mapper.writeValueAsString(root);
    }

    private static String lambda(double v) {
        return Double.isInfinite(v) ? "inf" : Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.3g", v);
    }

    /** The inner cross-validation's mean |error| per strength tried, when it chose. */
    private static String penaltyPath(Calibration.Result r) {
        double[] grid = r.request().penalties();
        if (grid.length < 2 || Double.isNaN(r.penaltyErrorPct()[0])) {
            return grid.length < 2 ? " (given)" : "";
        }
        StringBuilder sb = new StringBuilder(" (leave-one-source-out mean |error| per lambda:");
        for (int g = 0; g < grid.length; g++) {
            sb.append(String.format(Locale.ROOT, " %s %.2f%%", lambda(grid[g]), r.penaltyErrorPct()[g]));
        }
        return sb.append(')').toString();
    }

    private static void print(CaseScorer scorer, Calibration.Result r, double seconds, PrintStream out) {
        FitResult f = r.fit();
        out.printf(Locale.ROOT, "calibrate: %d cases (%s); %d selected cases not scored ok and left out%n",
                r.cases().length, r.request().selection().describe(), r.excluded().size());
        out.printf(Locale.ROOT, "fit: %d iterations, %d evaluations, %,d case evaluations, %.1f s%s%n",
                f.iterations(), f.evaluations(), f.casesScored(), f.seconds(),
                f.note().isEmpty() ? "" : "; " + f.note());
        out.printf(Locale.ROOT, "ridge penalty: lambda %s%s%n", lambda(f.penalty()), penaltyPath(r));
        out.printf(Locale.ROOT, "%n%-58s %-9s %11s %11s %9s %9s%n", "parameter", "unit", "before", "after", "lower",
                "upper");
        for (int j = 0; j < f.parameters().size(); j++) {
            out.printf(Locale.ROOT, "%-58s %-9s %11.5g %11.5g %9.4g %9.4g%s%n", f.parameters().get(j).path(),
                    f.parameters().get(j).unit(), f.start(j), f.value(j), f.parameters().get(j).lower(),
                    f.parameters().get(j).upper(), f.fitted(j) ? "" : "  (not fitted)");
        }
        CrossValidation.Result cv = r.crossValidation();
        out.printf(Locale.ROOT, "%nmean |error| over %d cases: before %.2f%%, after %.2f%% in-sample, %.2f%% "
                + "leave-one-source-out%n", r.cases().length, r.beforeErrorPct(), r.afterErrorPct(),
                cv.meanAbsErrorPct());
        out.printf(Locale.ROOT, "%n%-84s %6s %8s %9s %9s %9s%n", "held-out source", "cases", "lambda", "before%",
                "in-sample%", "held-out%");
        for (CrossValidation.Fold fold : cv.folds()) {
            out.printf(Locale.ROOT, "%-84.84s %6d %8s %9.2f %9.2f %9.2f%n", fold.heldOut(), fold.cases(),
                    lambda(fold.fit() == null ? Double.NaN : fold.fit().penalty()),
                    Calibration.meanAbsErrorPct(scorer, r.before(), fold.caseIndices()),
                    Calibration.meanAbsErrorPct(scorer, r.after(), fold.caseIndices()), fold.meanAbsErrorPct());
        }
        IntervalModel m = r.intervals();
        out.printf(Locale.ROOT, "%nintervals (%.0f%%), predicted / measured time:%n", m.coverage() * 100);
        for (IntervalModel.Group g : m.groups()) {
            out.printf(Locale.ROOT, "  %-18s %-24s %-10s n=%-5d %.3f - %.3f%n", g.output().id(), g.stack(), g.family(),
                    g.residuals(), Math.exp(g.logRatioLow()), Math.exp(g.logRatioHigh()));
        }
        out.printf(Locale.ROOT, "%ntotal %.1f s%n", seconds);
    }
}
