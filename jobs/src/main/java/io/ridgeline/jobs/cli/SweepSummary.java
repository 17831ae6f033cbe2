package io.ridgeline.jobs.cli;

import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.sweep.Metric;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.jobs.sweep.SweepJob;
import io.ridgeline.schema.ResultsSchema;
import org.apache.spark.sql.Row;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@code sweep} prints after a commit: timings, status counts, where the tables are, and a bounded look at the
 * frontier (the first {@code maxGroups} groups, {@code linesPerGroup} rows each) with the query that shows the rest.
 * A 120-group technology sweep printed 700+ frontier lines before; now at most {@code maxGroups x (linesPerGroup + 2)}.
 */
final class SweepSummary {
    @Option(names = "--frontier-groups", defaultValue = "8", description = "Frontier groups shown (default: "
            + "${DEFAULT-VALUE}); sql shows all.")
    int maxGroups;

    @Option(names = "--frontier-lines", defaultValue = "5", description = "Frontier rows shown per group (default: "
            + "${DEFAULT-VALUE}).")
    int linesPerGroup;

    /** With the options' defaults, for picocli. */
    SweepSummary() {
    }

    SweepSummary(int maxGroups, int linesPerGroup) {
        this.maxGroups = maxGroups;
        this.linesPerGroup = linesPerGroup;
    }

    void print(PrintStream c, SweepSpec spec, SweepJob.RunResult r, String out) {
        c.printf(Locale.ROOT, "run %s committed: %,d points, %,d evaluations in %.1f s (%,.0f points/s, %,.0f "
                        + "evaluations/s in the Spark job); total %.1f s%n", r.runId(), r.gridPoints(),
                r.evaluations(), r.evaluateSeconds(), r.gridPoints() / r.evaluateSeconds(),
                r.evaluations() / r.evaluateSeconds(), r.totalSeconds());
        StringBuilder status = new StringBuilder();
        for (PointStatus s : PointStatus.values()) {
            long n = r.statusCounts()[s.ordinal()];
            if (n > 0) {
                status.append(status.length() == 0 ? "" : ", ").append(s.id()).append(' ').append(n);
            }
        }
        c.println("  status: " + status);
        c.printf("  points:   %s (%,d rows)%n", local(r.pointsPath()), r.pointsRows());
        c.printf("  frontier: %s (%,d rows)%n", local(r.frontierPath()), r.frontierRows());
        c.printf("  runs:     %s%n", local(r.runsPath()));
        Map<String, List<Row>> groups = new LinkedHashMap<>();
        int group = ResultsSchema.FRONTIER.index("frontier_group");
        for (Row row : r.frontier()) {
            groups.computeIfAbsent(row.getString(group), g -> new ArrayList<>()).add(row);
        }
        c.printf("frontier (%s): %,d rows in %,d group%s%n", objectives(spec), r.frontier().size(), groups.size(),
                groups.size() == 1 ? "" : "s");
        int shownGroups = 0;
        int shownRows = 0;
        for (Map.Entry<String, List<Row>> g : groups.entrySet()) {
            if (shownGroups++ == maxGroups) {
                break;
            }
            c.println("  " + g.getKey());
            List<Row> rows = g.getValue();
            for (int i = 0; i < Math.min(linesPerGroup, rows.size()); i++) {
                c.println("    " + line(spec, rows.get(i)));
                shownRows++;
            }
            if (rows.size() > linesPerGroup) {
                c.printf("    ... %d more%n", rows.size() - linesPerGroup);
            }
        }
        if (r.frontier().isEmpty()) {
            c.println("  (empty: no point is feasible within the constraints)");
        } else if (groups.size() > maxGroups || shownRows < r.frontier().size()) {
            c.printf("  shown: %,d of %,d groups, %,d of %,d rows (--frontier-groups, --frontier-lines); all of them:%n",
                    Math.min(maxGroups, groups.size()), groups.size(), shownRows, r.frontier().size());
        }
        boolean intervals = spec.objectives().stream().anyMatch(o -> o.metric().low() != null);
        if (intervals && !r.frontier().isEmpty()) {
            long fragile = r.frontier().stream().filter(row -> !robust(row)).count();
            c.printf(Locale.ROOT, "  [lo, hi] = %.0f%% prediction interval; %,d of %,d rows not robust (another design "
                            + "may beat them inside the intervals; docs/CALIBRATION.md)%n", 100 * spec.intervalCoverage(),
                    fragile, r.frontier().size());
        }
        c.printf("query:    scripts/ridgeline sql --out %s \"select * from frontier where run_id = '%s'\"%n", out,
                r.runId());
    }

    static String objectives(SweepSpec spec) {
        StringBuilder sb = new StringBuilder();
        for (SweepSpec.Objective o : spec.objectives()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(o.goal().id()).append(' ').append(o.metric().column());
        }
        return sb.toString();
    }

    /** The frontier's {@code robust} flag; true where the column is absent or null (rows not from a frontier). */
    private static boolean robust(Row row) {
        int i = ResultsSchema.FRONTIER.index("robust");
        return i >= row.length() || row.isNullAt(i) || row.getBoolean(i);
    }

    /** Local paths without Hadoop's "file:" scheme, so they can be pasted into a shell. */
    private static String local(String path) {
        return path.startsWith("file:") ? path.substring("file:".length()) : path;
    }

    private static String line(SweepSpec spec, Row row) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "%-9s x%-5d %-7s tp%d pp%d dp%d", row.getString(
                        ResultsSchema.POINTS.index("chip")), row.getInt(ResultsSchema.POINTS.index("gpu_count")),
                row.getString(ResultsSchema.POINTS.index("scale_out")),
                row.getInt(ResultsSchema.POINTS.index("tp")), row.getInt(ResultsSchema.POINTS.index("pp")),
                row.getInt(ResultsSchema.POINTS.index("dp"))));
        String topology = row.getString(ResultsSchema.POINTS.index("topology"));
        if (topology != null && !topology.equals("none")) {
            sb.append(' ').append(topology);
        }
        if ("inference".equals(row.getString(ResultsSchema.POINTS.index("phase")))) {
            // inference rows: the static batch (continuous modes: the concurrency cap or clients, and the
            // prefill:decode split) and the storage formats instead of training's plan details
            int batch = ResultsSchema.POINTS.index("global_batch");
            int concurrency = ResultsSchema.POINTS.index("concurrency");
            String split = row.getString(ResultsSchema.POINTS.index("disaggregation"));
            if (!row.isNullAt(batch)) {
                sb.append(" batch").append(row.getInt(batch));
            } else {
                sb.append(' ').append(row.getString(ResultsSchema.POINTS.index("serving_mode")));
                if (!row.isNullAt(concurrency)) {
                    sb.append(" c").append(row.getInt(concurrency));
                }
            }
            if (split != null && !split.equals("none")) {
                sb.append(" p:d ").append(split);
            }
            sb.append(" w").append(row.getString(ResultsSchema.POINTS.index("weight_precision")))
                    .append(" kv").append(row.getString(ResultsSchema.POINTS.index("kv_cache_precision")));
        } else {
            int cp = row.getInt(ResultsSchema.POINTS.index("cp"));
            if (cp > 1) {
                sb.append(" cp").append(cp);
            }
            int vpp = row.getInt(ResultsSchema.POINTS.index("vpp"));
            if (vpp > 1) {
                sb.append(" v").append(vpp);
            }
            sb.append(" mb").append(row.getInt(ResultsSchema.POINTS.index("micro_batch")));
            sb.append(' ').append(row.getString(ResultsSchema.POINTS.index("recompute")));
        }
        for (SweepSpec.Objective o : spec.objectives()) {
            String column = o.metric().column();
            Object v = row.get(ResultsSchema.POINTS.index(column));
            sb.append("  ").append(column).append('=').append(v instanceof Double d
                    ? String.format(Locale.ROOT, "%.4g", d) : v);
            Metric low = o.metric().low();
            if (low != null) {
                int lo = ResultsSchema.POINTS.index(low.column());
                int hi = ResultsSchema.POINTS.index(o.metric().high().column());
                if (!row.isNullAt(lo) && !row.isNullAt(hi)) {
                    sb.append(String.format(Locale.ROOT, " [%.3g, %.3g]", row.getDouble(lo), row.getDouble(hi)));
                }
            }
        }
        if (!row.isNullAt(ResultsSchema.POINTS.index("mfu_fraction"))) {
            sb.append(String.format(Locale.ROOT, "  mfu=%.3f",
                    row.getDouble(ResultsSchema.POINTS.index("mfu_fraction"))));
        }
        if (!robust(row)) {
            sb.append("  not robust");
        }
        return sb.toString();
    }
}
