package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.SpecNode;
import io.ridgeline.engine.spec.SpecNode.MapNode;
import io.ridgeline.engine.spec.SpecReader;
import io.ridgeline.engine.spec.SpecTreeReader;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The recipe of the shipped fits (catalog/fits.yaml): which catalogue constants are fitted on which cases, from which
 * a-priori start values, rounded to how many digits. {@link RecipeRun} replays it: the shipped values are exactly
 * what it prints, and the accuracy report's leave-one-source-out column replays it without each source. Constants
 * not listed (datasheet values, microbenchmark ratios, assumptions) are never refitted.
 */
public record FitRecipe(String source, List<Entry> entries) {
    static final String RESOURCE = "catalog/fits.yaml";

    /**
     * One fit.
     *
     * @param files     case files, relative to the project root
     * @param selection which of their rows
     */
    public record Entry(String id, String description, List<String> files, CaseSelection selection,
                        Fitter.Weighting weighting, Fitter.Loss loss, List<RecipeParameter> parameters) {
    }

    /**
     * One fitted constant.
     *
     * @param start       the a-priori value every fit of this recipe starts from (never the shipped value, so a fold
     *                    never sees its held-out source through its starting point)
     * @param startSource where the start value comes from
     * @param digits      significant digits the shipped value keeps
     * @param tied        other catalogue paths that ship the same value (stated as an assumption in their source);
     *                    set after the fit, so they must not change the fit's own cases
     * @param priorLow    lower end of the range the constant is a priori known to lie in (the parameter's bounds
     *                    unless the recipe states a narrower range with its source): what a fold that cannot
     *                    identify the constant knows of it ({@link FitUncertainty})
     * @param priorHigh   upper end of that range
     * @param priorSource where the range comes from
     */
    public record RecipeParameter(String path, double start, String startSource, int digits, List<String> tied,
                                  double priorLow, double priorHigh, String priorSource) {
        public RecipeParameter {
            tied = List.copyOf(tied);
        }
    }

    public FitRecipe {
        entries = List.copyOf(entries);
    }

    /** The recipe shipped in the engine's resources. */
    public static FitRecipe bundled() {
        try (InputStream in = FitRecipe.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            return parse(RESOURCE, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + RESOURCE, e);
        }
    }

    /**
     * Parses a recipe; every problem is reported at once with line, column and field path.
     *
     * @throws InvalidInputException when the recipe is invalid
     */
    public static FitRecipe parse(String source, String text) {
        SpecReader r = new SpecReader(source);
        MapNode root = r.map(SpecTreeReader.parse(source, text), "(document)");
        r.throwIfErrors();
        r.keys(root, "", List.of("fits"));
        List<Entry> entries = r.list(r.required(root, "", "fits", "a list of fits"), "fits",
                (n, path) -> entry(r, n, path));
        r.throwIfErrors();
        return new FitRecipe(source, entries);
    }

    private static Entry entry(SpecReader r, SpecNode n, String path) {
        MapNode m = r.map(n, path);
        if (m == null) {
            return null;
        }
        r.keys(m, path, List.of("id", "description", "cases", "weighting", "loss", "parameters"));
        String id = r.string(r.required(m, path, "id", "a fit id"), path + ".id");
        String description = r.string(r.required(m, path, "description", "what the fit is for"),
                path + ".description");
        MapNode cases = r.map(r.required(m, path, "cases", "the cases: files and selection"), path + ".cases");
        List<String> files = List.of();
        CaseSelection selection = CaseSelection.ALL;
        if (cases != null) {
            r.keys(cases, path + ".cases", List.of("files", "gpu", "framework", "phase", "metric", "precision"));
            files = r.list(r.required(cases, path + ".cases", "files", "case files"), path + ".cases.files",
                    r::string);
            selection = new CaseSelection(strings(r, cases, path, "gpu"), strings(r, cases, path, "framework"),
                    strings(r, cases, path, "phase"), strings(r, cases, path, "metric"),
                    strings(r, cases, path, "precision"));
        }
        Fitter.Weighting weighting = m.get("weighting") == null ? Fitter.Weighting.CASE
                : r.enumValue(m.get("weighting"), path + ".weighting", Fitter.Weighting.class);
        Fitter.Loss loss = m.get("loss") == null ? Fitter.Loss.LINEAR
                : r.enumValue(m.get("loss"), path + ".loss", Fitter.Loss.class);
        MapNode ps = r.map(r.required(m, path, "parameters", "the fitted catalogue paths"), path + ".parameters");
        List<RecipeParameter> parameters = new ArrayList<>();
        if (ps != null) {
            for (String p : ps.values().keySet()) {
                String pp = path + ".parameters." + p;
                if (ParameterRegistry.kindOf(p) == null) {
                    r.error(ps.get(p), pp, "a catalogue path declared in ParameterRegistry", "'" + p + "'");
                }
                MapNode v = r.map(ps.get(p), pp);
                if (v == null) {
                    continue;
                }
                r.keys(v, pp, List.of("start", "start_source", "digits", "tied", "prior", "prior_source"));
                Double start = r.number(r.required(v, pp, "start", "the a-priori start value"), pp + ".start",
                        -Double.MAX_VALUE, Double.MAX_VALUE, true);
                String startSource = r.string(r.required(v, pp, "start_source", "where the start value comes from"),
                        pp + ".start_source");
                Integer digits = r.integer(r.required(v, pp, "digits", "significant digits shipped"), pp + ".digits",
                        1, 8, "an integer in [1, 8]");
                List<String> tied = v.get("tied") == null ? List.of() : r.list(v.get("tied"), pp + ".tied", r::string);
                for (String t : tied) {
                    if (ParameterRegistry.kindOf(t) == null) {
                        r.error(v.get("tied"), pp + ".tied", "catalogue paths declared in ParameterRegistry",
                                "'" + t + "'");
                    }
                }
                double[] prior = prior(r, v, pp, ParameterRegistry.kindOf(p));
                String priorSource = "the parameter's bounds (catalog/calibration_parameters.csv)";
                if (v.get("prior") != null) {
                    SpecNode node = r.required(v, pp, "prior_source", "where the prior range comes from");
                    priorSource = node == null ? null : r.string(node, pp + ".prior_source");
                }
                if (start != null && startSource != null && digits != null && prior != null && priorSource != null) {
                    parameters.add(new RecipeParameter(p, start, startSource, digits, tied, prior[0], prior[1],
                            priorSource));
                }
            }
        }
        if (id == null || description == null) {
            return null;
        }
        return new Entry(id, description, files, selection, weighting == null ? Fitter.Weighting.CASE : weighting,
                loss == null ? Fitter.Loss.LINEAR : loss, parameters);
    }

    /** The stated {@code prior: [low, high]} inside the parameter's bounds, else the bounds; null on an error. */
    private static double[] prior(SpecReader r, MapNode v, String pp, ParameterKind kind) {
        if (kind == null) {
            return null;
        }
        if (v.get("prior") == null) {
            return new double[]{kind.lower(), kind.upper()};
        }
        List<Double> range = r.list(v.get("prior"), pp + ".prior",
                (n, path) -> r.number(n, path, kind.lower(), kind.upper(), true));
        if (range == null || range.size() != 2 || range.contains(null) || !(range.get(0) < range.get(1))) {
            r.error(v.get("prior"), pp + ".prior", "[low, high] with low < high inside the parameter's bounds ["
                    + kind.lower() + ", " + kind.upper() + "]", String.valueOf(range));
            return null;
        }
        return new double[]{range.get(0), range.get(1)};
    }

    private static List<String> strings(SpecReader r, MapNode m, String path, String key) {
        return m.get(key) == null ? List.of() : r.list(m.get(key), path + ".cases." + key, r::string);
    }

    /** "linear" / "case" as the file writes them. */
    static String id(Enum<?> e) {
        return e.name().toLowerCase(Locale.ROOT);
    }
}
