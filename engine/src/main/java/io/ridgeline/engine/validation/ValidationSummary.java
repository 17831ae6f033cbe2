package io.ridgeline.engine.validation;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Mean and max |error| overall and per file, source, phase, metric and GPU. */
public record ValidationSummary(int count, int supported, double meanAbsErrorPct, double maxAbsErrorPct,
                                List<Group> groups) {

    /** One group's statistics; {@code key} is "dimension=value". */
    public record Group(String key, int count, double meanAbsErrorPct, double maxAbsErrorPct) {
    }

    public static ValidationSummary of(List<CaseOutcome> outcomes) {
        List<Group> groups = new ArrayList<>();
        addGroups(groups, outcomes, "file", CaseOutcome::file);
        addGroups(groups, outcomes, "source", CaseOutcome::source);
        addGroups(groups, outcomes, "phase", CaseOutcome::phase);
        addGroups(groups, outcomes, "metric", CaseOutcome::metric);
        addGroups(groups, outcomes, "gpu", CaseOutcome::gpu);
        Group all = stats("all", outcomes);
        return new ValidationSummary(outcomes.size(), all.count(), all.meanAbsErrorPct(), all.maxAbsErrorPct(),
                groups);
    }

    /** Statistics over the ok outcomes of a list. */
    public static Group stats(String key, List<CaseOutcome> outcomes) {
        int n = 0;
        double sum = 0;
        double max = 0;
        for (CaseOutcome o : outcomes) {
            if (o.isOk()) {
                double e = Math.abs(o.errorPct());
                n++;
                sum += e;
                max = Math.max(max, e);
            }
        }
        return new Group(key, n, n == 0 ? Double.NaN : sum / n, n == 0 ? Double.NaN : max);
    }

    private static void addGroups(List<Group> out, List<CaseOutcome> outcomes, String dimension,
                                  Function<CaseOutcome, String> by) {
        Map<String, List<CaseOutcome>> map = new LinkedHashMap<>();
        for (CaseOutcome o : outcomes) {
            map.computeIfAbsent(by.apply(o), k -> new ArrayList<>()).add(o);
        }
        for (Map.Entry<String, List<CaseOutcome>> e : map.entrySet()) {
            out.add(stats(dimension + "=" + e.getKey(), e.getValue()));
        }
    }
}
