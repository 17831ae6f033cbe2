package io.ridgeline.engine.fit;

import io.ridgeline.engine.hardware.HardwareCatalog;
import io.ridgeline.engine.software.StackCatalog;
import io.ridgeline.engine.spec.CsvTable;
import io.ridgeline.engine.validation.CaseOutcome;
import io.ridgeline.engine.validation.InferencePredictor;
import io.ridgeline.engine.validation.ValidationSummary;
import io.ridgeline.engine.validation.Validator;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Grid fit of one value of one software profile in catalog/stacks.yaml on the training rows whose {@code framework}
 * names that profile (or one that extends it): for each candidate the catalogue is re-read with the value replaced
 * and the rows are scored; prints mean and max |error| per candidate, scored and infeasible counts, and the best.
 *
 * <p>Usage (scripts/fit-stack-value): {@code PROFILE KEY CANDIDATES(comma-separated) CASE_FILE...}; the rows used are
 * those of the case files whose framework is one of the profile ids given with {@code --frameworks a,b} (default: the
 * profile itself).
 */
public final class StackValueFit {
    private StackValueFit() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            throw new IllegalArgumentException("usage: PROFILE KEY CANDIDATES [--frameworks a,b] CASE_FILE...");
        }
        String profile = args[0];
        String key = args[1];
        String[] candidates = args[2].split(",");
        Set<String> frameworks = new HashSet<>(List.of(profile));
        List<Path> files = new ArrayList<>();
        for (int i = 3; i < args.length; i++) {
            if (args[i].equals("--frameworks")) {
                frameworks = new HashSet<>(List.of(args[++i].split(",")));
            } else {
                files.add(Path.of(args[i]));
            }
        }
        Set<String> ids = new HashSet<>();
        for (Path f : files) {
            for (CsvTable.Row r : CsvTable.read(f).rows()) {
                if (r.string("phase").equals("training") && frameworks.contains(r.stringOr("framework", ""))) {
                    ids.add(r.string("case_id"));
                }
            }
        }
        String text = StackCatalog.bundledText();
        String best = null;
        double bestMean = Double.MAX_VALUE;
        for (String c : candidates) {
            StackCatalog stacks = StackCatalog.parse("stacks.yaml (" + key + " = " + c + ")",
                    replace(text, profile, key, c));
            List<CaseOutcome> all = new Validator(HardwareCatalog.bundled(), stacks, InferencePredictor.available())
                    .run(files);
            List<CaseOutcome> selected = all.stream().filter(o -> ids.contains(o.caseId())).toList();
            ValidationSummary.Group g = ValidationSummary.stats(key, selected);
            long infeasible = selected.stream().filter(o -> o.status().equals("infeasible")).count();
            System.out.printf(Locale.ROOT, "%s = %-8s rows %d scored %d infeasible %d mean |error| %.2f%% max %.2f%%%n",
                    key, c, selected.size(), g.count(), infeasible, g.meanAbsErrorPct(), g.maxAbsErrorPct());
            if (g.count() > 0 && g.meanAbsErrorPct() < bestMean) {
                bestMean = g.meanAbsErrorPct();
                best = c;
            }
        }
        System.out.printf(Locale.ROOT, "best %s.training.%s = %s (mean |error| %.2f%%)%n", profile, key, best, bestMean);
    }

    /** The catalogue text with {@code profile}'s own {@code key} value replaced. */
    static String replace(String text, String profile, String key, String value) {
        int start = text.indexOf("\n  " + profile + ":\n");
        if (start < 0) {
            throw new IllegalArgumentException("no profile " + profile);
        }
        int end = text.indexOf("\n  ", start + 3 + profile.length());
        while (end >= 0 && text.startsWith("\n    ", end)) {
            end = text.indexOf("\n  ", end + 1);
        }
        String block = text.substring(start, end < 0 ? text.length() : end);
        Matcher m = Pattern.compile("(\\n      " + Pattern.quote(key) + ":\\n        value: )([^\\n]*)").matcher(block);
        if (!m.find()) {
            throw new IllegalArgumentException(profile + " does not set " + key + " itself");
        }
        String replaced = block.substring(0, m.start(2)) + value + block.substring(m.end(2));
        return text.substring(0, start) + replaced + (end < 0 ? "" : text.substring(end));
    }
}
