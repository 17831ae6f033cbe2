package io.ridgeline.jobs.report;

import io.ridgeline.engine.sweep.Metric;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Frontier points that appeared, disappeared, or moved by more than a relative tolerance on any objective between two
 * runs (DuckDB over the results views). A frontier point is identified by its configuration (group, model, workload,
 * hardware, plan), not by its grid index, so runs of edited sweeps compare too. Used by {@code ridgeline diff} and the
 * HTML report.
 */
public final class FrontierDiff {
    /** The configuration columns that identify a frontier point across runs. */
    public static final List<String> KEY = List.of("frontier_group", "model", "phase", "seq_len", "global_batch",
            "chip", "gpu_count", "scale_out", "scale_out_gbit_s", "scale_up_domain", "tp", "pp", "dp", "cp", "ep", "sp",
            "vpp", "zero", "micro_batch", "recompute", "precision");

    private FrontierDiff() {
    }

    /**
     * The diff's rows: change (appeared, disappeared, moved), frontier_group, chip, gpu_count, plan, then
     * {@code <objective>_a} and {@code <objective>_b} per objective; ordered by change, group, chip, GPUs, plan. The
     * caller executes and closes the statement.
     */
    public static PreparedStatement prepare(Connection c, String runA, String runB, List<String> objectives,
                                            double tolerance) throws SQLException {
        StringBuilder sql = new StringBuilder("WITH a AS (SELECT *, true AS in_a FROM frontier WHERE run_id = ?), "
                + "b AS (SELECT *, true AS in_b FROM frontier WHERE run_id = ?) SELECT CASE WHEN in_a IS NULL "
                + "THEN 'appeared' WHEN in_b IS NULL THEN 'disappeared' ELSE 'moved' END AS change, "
                + "frontier_group, chip, gpu_count, 'tp' || tp || ' pp' || pp || ' dp' || dp || ' cp' || cp || "
                + "' mb' || micro_batch || ' ' || recompute || ' ' || precision AS plan");
        StringBuilder moved = new StringBuilder();
        for (String o : objectives) {
            sql.append(", a.").append(o).append(" AS ").append(o).append("_a, b.").append(o).append(" AS ")
                    .append(o).append("_b");
            moved.append(" OR abs(b.").append(o).append(" - a.").append(o).append(") > ? * greatest(abs(a.")
                    .append(o).append("), 1e-300)");
        }
        sql.append(" FROM a FULL OUTER JOIN b USING (").append(String.join(", ", KEY)).append(") WHERE in_a IS "
                + "NULL OR in_b IS NULL").append(moved).append(" ORDER BY change, frontier_group, chip, gpu_count, "
                + "plan");
        PreparedStatement st = c.prepareStatement(sql.toString());
        st.setString(1, runA);
        st.setString(2, runB);
        for (int i = 0; i < objectives.size(); i++) {
            st.setDouble(3 + i, tolerance);
        }
        return st;
    }

    /** The diff's rows in memory (see {@link #prepare}). */
    public static ResultRows rows(Connection c, String runA, String runB, List<String> objectives, double tolerance)
            throws SQLException {
        try (PreparedStatement st = prepare(c, runA, runB, objectives, tolerance); ResultSet rs = st.executeQuery()) {
            return ResultRows.read("frontier", rs);
        }
    }

    /** A run's objective columns from its manifest, checked against the known metric columns; tokens_per_s if none. */
    public static List<String> objectives(Connection c, String runId) throws SQLException {
        List<String> cols = new ArrayList<>();
        try (PreparedStatement st = c.prepareStatement("SELECT objectives FROM runs WHERE run_id = ?")) {
            st.setString(1, runId);
            try (ResultSet rs = st.executeQuery()) {
                if (rs.next() && rs.getString(1) != null) {
                    for (String part : rs.getString(1).split(",")) {
                        String col = part.trim().substring(part.trim().indexOf(' ') + 1);
                        if (Metric.byColumn(col) == null) {
                            throw new IllegalStateException("runs.objectives names an unknown column: " + col);
                        }
                        cols.add(col);
                    }
                }
            }
        }
        if (cols.isEmpty()) {
            cols.add("tokens_per_s");
        }
        return cols;
    }

    /**
     * The run committed last before {@code runId} with the same sweep name, or null: the run a nightly report diffs
     * against.
     */
    public static String previousRun(Connection c, String runId) throws SQLException {
        try (PreparedStatement st = c.prepareStatement("SELECT p.run_id FROM runs p, runs r WHERE r.run_id = ? "
                + "AND p.sweep_name = r.sweep_name AND p.run_id <> r.run_id AND (p.finished_at < r.finished_at OR "
                + "(p.finished_at = r.finished_at AND p.run_id < r.run_id)) ORDER BY p.finished_at DESC, p.run_id "
                + "DESC LIMIT 1")) {
            st.setString(1, runId);
            try (ResultSet rs = st.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }
}
