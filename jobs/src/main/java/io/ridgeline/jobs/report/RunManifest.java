package io.ridgeline.jobs.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The runs manifest row of a report as blocks of facts: what ran (sweep, hashes, versions), counts by status, timings,
 * and every further column the manifest has (newer schema versions add some) so nothing recorded is hidden.
 */
final class RunManifest {
    static final List<String> IDENTITY = List.of("run_id", "sweep_name", "sweep_file", "spec_sha256",
            "catalog_sha256", "code_version", "schema_version", "spark_master", "partitions", "points_policy",
            "objectives", "group_by");
    static final List<String> SIZES = List.of("grid_points", "evaluations", "points_rows", "frontier_rows");
    static final List<String> TIMINGS = List.of("started_at", "finished_at", "validate_s", "evaluate_s", "frontier_s",
            "total_s");

    private RunManifest() {
    }

    static List<ReportPage.Part> parts(ResultRows manifest) {
        if (manifest.size() == 0) {
            return List.of(new ReportPage.Text("The run has no manifest row."));
        }
        Set<String> shown = new LinkedHashSet<>();
        List<ReportPage.Part> parts = new ArrayList<>();
        parts.add(facts("What ran", manifest, IDENTITY, shown));
        List<String> counts = new ArrayList<>(SIZES);
        manifest.columns().stream().filter(col -> col.startsWith("count_")).forEach(counts::add);
        parts.add(facts("Counts (points by status)", manifest, counts, shown));
        parts.add(facts("Timings", manifest, TIMINGS, shown));
        List<String> rest = manifest.columns().stream().filter(col -> !shown.contains(col)).toList();
        if (!rest.isEmpty()) {
            parts.add(facts("Also recorded", manifest, rest, shown));
        }
        return parts;
    }

    private static ReportPage.Facts facts(String heading, ResultRows m, List<String> cols, Set<String> shown) {
        List<ReportPage.Fact> facts = new ArrayList<>();
        for (String col : cols) {
            if (m.has(col)) {
                shown.add(col);
                Object v = m.value(0, col);
                String value = v == null ? "" : v instanceof Number n ? HtmlReport.number(n) : v.toString();
                String label = col.startsWith("count_") ? "status " + col.substring("count_".length()) : col;
                String unit = ColumnSelector.unit("runs", col);
                facts.add(new ReportPage.Fact(label, unit.isEmpty() || unit.equals("count") || value.isEmpty()
                        ? value : value + " " + unit));
            }
        }
        return new ReportPage.Facts(heading, facts);
    }

    /** A manifest cell as text, "" when the run or the column is missing. */
    static String text(ResultRows manifest, String col) {
        return manifest.size() > 0 && manifest.has(col) ? manifest.text(0, col) : "";
    }
}
