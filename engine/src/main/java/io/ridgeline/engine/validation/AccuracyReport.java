package io.ridgeline.engine.validation;

import java.util.List;
import java.util.Locale;

/** Renders validation outcomes as a console table (docs/ACCURACY.md is engine {@code calibration.AccuracyDocument}). */
public final class AccuracyReport {
    private AccuracyReport() {
    }

    /** Per-case lines (optional) and the grouped summary. */
    public static String text(List<CaseOutcome> outcomes, ValidationSummary s, boolean perCase) {
        StringBuilder sb = new StringBuilder();
        if (perCase) {
            sb.append(String.format(Locale.ROOT, "%-46s %-11s %12s %12s %8s  %s%n", "case", "status", "predicted",
                    "measured", "error%", "reason"));
            for (CaseOutcome o : outcomes) {
                sb.append(String.format(Locale.ROOT, "%-46s %-11s %12.5g %12.5g %8s  %s%n", o.caseId(), o.status(),
                        o.predicted(), o.measured(), o.isOk() ? String.format(Locale.ROOT, "%+.1f", o.errorPct())
                                : "-", o.reason()));
            }
            sb.append('\n');
        }
        sb.append(String.format(Locale.ROOT, "%d cases, %d scored; mean |error| %.2f%%, max %.2f%%%n%n", s.count(),
                s.supported(), s.meanAbsErrorPct(), s.maxAbsErrorPct()));
        sb.append(String.format(Locale.ROOT, "%-90s %6s %10s %10s%n", "group", "n", "mean|e|%", "max|e|%"));
        for (ValidationSummary.Group g : s.groups()) {
            sb.append(String.format(Locale.ROOT, "%-90.90s %6d %10.2f %10.2f%n", g.key(), g.count(),
                    g.meanAbsErrorPct(), g.maxAbsErrorPct()));
        }
        return sb.toString();
    }
}
