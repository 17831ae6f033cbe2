package io.ridgeline.jobs.report;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Assembles the report of one run: what ran (the runs manifest), its frontier as a sortable table and a scatter, the
 * step-time breakdown (training), the roofline with the frontier's GEMMs, what bounds the points, memory headroom,
 * and what changed since the previous run of the same sweep ({@link FrontierDiff}, as {@code ridgeline diff}).
 *
 * @param c         the connection the views live on (manifest and diff read every run, not only this one)
 * @param q         the run's queries
 * @param tolerance relative change that counts as moved in the diff
 */
public record ReportBuilder(Connection c, RunQuery q, double tolerance) {
    /**
     * Frontier table columns in order (after {@link #ALWAYS} and the objectives); those a run lacks or leaves empty on
     * every row are dropped.
     */
    static final List<String> FRONTIER_COLUMNS = List.of("frontier_group", "model", "phase", "chip", "gpu_count",
            "scale_out", "topology", "tp", "pp", "dp", "cp", "ep", "vpp", "zero", "micro_batch", "recompute",
            "precision", "global_batch", "input_tokens", "output_tokens", "weight_precision", "kv_cache_precision",
            "step_time_s", "tokens_per_s", "mfu_fraction", "ttft_s", "tpot_s", "e2e_latency_s",
            "output_tokens_per_s_per_gpu", "usd_per_million_tokens", "energy_per_token_j", "hbm_bytes",
            "bottleneck");
    /** Plan columns shown only when some row differs from 1 (no context, expert or virtual-stage split). */
    static final List<String> ONE_BY_DEFAULT = List.of("cp", "ep", "vpp");
    /** Columns kept even when every row has the same value (they identify rows). */
    static final List<String> ALWAYS = List.of("frontier_group", "model", "chip", "gpu_count");

    public ReportPage build() throws SQLException {
        String runId = q.runId();
        ResultRows manifest = manifest(runId);
        List<String[]> objectives = objectives(manifest);
        FrontierTable table = frontierTable(objectives);
        ResultRows frontier = table.rows();
        Set<String> phases = new LinkedHashSet<>();
        if (q.columns("frontier").contains("phase")) {
            ResultRows byPhase = q.counts("frontier", List.of("phase"), null);
            for (int i = 0; i < byPhase.size(); i++) {
                phases.add(byPhase.text(i, "phase"));
            }
        }
        boolean training = phases.isEmpty() || phases.contains("training");
        ReportCharts charts = new ReportCharts(q, objectives);
        List<ReportPage.Section> sections = new ArrayList<>();
        sections.add(new ReportPage.Section("run", "Run", RunManifest.parts(manifest)));
        List<ReportPage.Part> front = new ArrayList<>();
        front.add(new ReportPage.Text(frontier.size() + " frontier rows" + (objectives.isEmpty() ? ""
                : " over " + RunManifest.text(manifest, "objectives").replace(",", ", ")) + (manifest.has("group_by")
                ? ", one frontier per " + RunManifest.text(manifest, "group_by") : "") + "." + (table.same().isEmpty()
                ? "" : " Same on every row: " + String.join(", ", table.same()) + ".") + " Click a header to sort."));
        front.add(new ReportPage.Table("frontier", frontier, true));
        front.addAll(charts.scatter());
        sections.add(new ReportPage.Section("frontier", "Frontier", front));
        sections.add(new ReportPage.Section("step-time", "Step time", charts.breakdown(training)));
        sections.add(new ReportPage.Section("roofline", "Roofline", charts.roofline(operatorRows())));
        sections.add(new ReportPage.Section("bottlenecks", "Bottlenecks", charts.bottlenecks()));
        sections.add(new ReportPage.Section("memory", "Memory", charts.memory(order(objectives))));
        sections.add(new ReportPage.Section("changes", "Changes", changes(runId, manifest)));
        String sweep = RunManifest.text(manifest, "sweep_name");
        return new ReportPage("Ridgeline run " + runId, (sweep.isEmpty() ? "" : "sweep " + sweep + "; ")
                + (phases.isEmpty() ? "" : String.join(" and ", phases) + "; ") + "finished "
                + RunManifest.text(manifest, "finished_at"), sections);
    }

    private ResultRows manifest(String runId) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT * FROM runs WHERE run_id = ?")) {
            st.setString(1, runId);
            try (ResultSet rs = st.executeQuery()) {
                return ResultRows.read("runs", rs);
            }
        }
    }

    /** {direction, column} per objective of the manifest ("max tokens_per_s,min cost_usd"). */
    static List<String[]> objectives(ResultRows manifest) {
        List<String[]> out = new ArrayList<>();
        String text = RunManifest.text(manifest, "objectives");
        for (String part : text.split(",")) {
            String[] dc = part.trim().split("\\s+");
            if (dc.length == 2) {
                out.add(dc);
            }
        }
        return out;
    }

    /** Group, then the first objective best first. */
    private static String order(List<String[]> objectives) {
        if (objectives.isEmpty()) {
            return "frontier_group";
        }
        String[] o = objectives.get(0);
        return "frontier_group, " + ColumnSelector.quote(o[1]) + (o[0].equals("max") ? " DESC" : " ASC");
    }

    /** The frontier rows with the columns that differ, and "column value" for those equal on every row. */
    private record FrontierTable(ResultRows rows, List<String> same) {
    }

    private FrontierTable frontierTable(List<String[]> objectives) throws SQLException {
        Set<String> available = q.columns("frontier");
        // Who the row is, then what it was chosen for (the objectives), then how (plan) and the other metrics.
        List<String> cols = new ArrayList<>();
        ALWAYS.stream().filter(available::contains).forEach(cols::add);
        objectives.stream().map(o -> o[1]).filter(available::contains).filter(c -> !cols.contains(c))
                .forEach(cols::add);
        FRONTIER_COLUMNS.stream().filter(available::contains).filter(c -> !cols.contains(c)).forEach(cols::add);
        ResultRows all = q.rows("frontier", cols, null, order(objectives), 0);
        List<String> keep = new ArrayList<>();
        List<String> same = new ArrayList<>();
        for (String col : cols) {
            boolean anyValue = false;
            boolean notOne = false;
            Set<String> distinct = new LinkedHashSet<>();
            for (int i = 0; i < all.size(); i++) {
                Object v = all.value(i, col);
                anyValue |= v != null && !v.toString().isEmpty();
                notOne |= v != null && !(v instanceof Number n && n.doubleValue() == 1);
                distinct.add(v instanceof Number n ? HtmlReport.number(n) : all.text(i, col));
            }
            boolean objective = objectives.stream().anyMatch(o -> o[1].equals(col));
            if (!anyValue || (ONE_BY_DEFAULT.contains(col) && !notOne)) {
                continue;
            }
            if (all.size() > 1 && distinct.size() == 1 && !objective && !ALWAYS.contains(col)) {
                // A column with one value says something about the run, not about a row: name it once.
                same.add(col + " " + distinct.iterator().next());
            } else {
                keep.add(col);
            }
        }
        return new FrontierTable(select(all, keep), same);
    }

    /** The columns the roofline's operators need, for every frontier row of the run. */
    private ResultRows operatorRows() throws SQLException {
        Set<String> available = q.columns("frontier");
        List<String> cols = new ArrayList<>();
        for (String col : List.of("model", "phase", "chip", "tp", "cp", "ep", "micro_batch", "seq_len",
                "global_batch", "input_tokens", "precision", "activation_precision")) {
            if (available.contains(col)) {
                cols.add(col);
            }
        }
        return cols.contains("chip") && cols.contains("model") ? q.rows("frontier", cols, null, null, 0)
                : new ResultRows("frontier", List.of("chip", "model"), List.of());
    }

    /** The diff against the previous run of the same sweep in this results directory. */
    private List<ReportPage.Part> changes(String runId, ResultRows manifest) throws SQLException {
        String sweep = RunManifest.text(manifest, "sweep_name");
        String previous = manifest.has("sweep_name") ? FrontierDiff.previousRun(c, runId) : null;
        if (previous == null) {
            return List.of(new ReportPage.Text("No earlier run of sweep " + (sweep.isEmpty() ? "(unnamed)" : sweep)
                    + " in this results directory: nothing to compare with."));
        }
        List<String> objectives = FrontierDiff.objectives(c, runId);
        ResultRows diff;
        try {
            diff = FrontierDiff.rows(c, previous, runId, objectives, tolerance);
        } catch (SQLException e) {
            // Results written without some identifying column (hand-made or very old tables) cannot be matched.
            return List.of(new ReportPage.Text("Cannot compare with " + previous + ", the previous run of sweep "
                    + sweep + ": " + e.getMessage().lines().findFirst().orElse("") + "."));
        }
        int[] n = new int[3];
        for (int i = 0; i < diff.size(); i++) {
            n[switch (diff.text(i, "change")) {
                case "appeared" -> 0;
                case "disappeared" -> 1;
                default -> 2;
            }]++;
        }
        List<ReportPage.Part> parts = new ArrayList<>();
        parts.add(new ReportPage.Text(String.format(Locale.ROOT, "Against %s, the previous run of sweep %s "
                        + "(objectives %s, tolerance %.3g relative): %d frontier points appeared, %d disappeared, %d "
                        + "moved. The same rows as: ridgeline diff %s %s --tolerance %s", previous, sweep,
                String.join(", ", objectives), tolerance, n[0], n[1], n[2], previous, runId, tolerance)));
        if (diff.size() > 0) {
            parts.add(new ReportPage.Table("diff", diff, true));
        }
        return parts;
    }

    /** The given columns of the rows, in that order. */
    static ResultRows select(ResultRows rows, List<String> cols) {
        int[] idx = cols.stream().mapToInt(rows::index).toArray();
        List<Object[]> out = new ArrayList<>(rows.size());
        for (Object[] r : rows.rows()) {
            Object[] o = new Object[idx.length];
            for (int k = 0; k < idx.length; k++) {
                o[k] = r[idx[k]];
            }
            out.add(o);
        }
        return new ResultRows(rows.table(), cols, out);
    }
}
