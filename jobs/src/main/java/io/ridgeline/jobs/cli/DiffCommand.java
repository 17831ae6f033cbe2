package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.engine.sweep.Metric;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ridgeline diff RUN_A RUN_B}: frontier points that appeared, disappeared, or moved by more than a relative
 * tolerance on any of RUN_B's objectives. A frontier point is identified by its configuration (group, model,
 * workload, hardware, plan), not by its grid index, so runs of edited sweeps compare too.
 */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = "List frontier points that appeared, disappeared or moved between two runs.")
public final class DiffCommand implements Callable<Integer> {
    static final List<String> KEY = List.of("frontier_group", "model", "phase", "seq_len", "global_batch", "chip",
            "gpu_count", "scale_out", "scale_out_gbit_s", "scale_up_domain", "tp", "pp", "dp", "cp", "ep", "sp", "vpp",
            "zero", "micro_batch", "recompute", "precision");

    @Parameters(index = "0", paramLabel = "RUN_A", description = "The earlier run id.")
    String runA;

    @Parameters(index = "1", paramLabel = "RUN_B", description = "The later run id.")
    String runB;

    @Option(names = "--out", defaultValue = "results", description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--tolerance", defaultValue = "0.01", description = "Relative change that counts as moved "
            + "(default: ${DEFAULT-VALUE}).")
    double tolerance;

    @Override
    public Integer call() throws SQLException {
        if (!(tolerance >= 0)) {
            throw new InvalidInputException(InputError.of("--tolerance", "tolerance", "a number >= 0",
                    String.valueOf(tolerance)));
        }
        try (Duck duck = new Duck(out)) {
            if (!duck.views.contains("runs") || !duck.views.contains("frontier")) {
                throw new InvalidInputException(InputError.of("--out", "out", "committed runs under " + out,
                        "no runs table"));
            }
            List<String> runs = new ArrayList<>();
            try (ResultSet rs = duck.connection.createStatement().executeQuery(
                    "SELECT run_id FROM runs ORDER BY run_id")) {
                while (rs.next()) {
                    runs.add(rs.getString(1));
                }
            }
            List<InputError> errors = new ArrayList<>();
            for (String[] r : new String[][]{{"RUN_A", runA}, {"RUN_B", runB}}) {
                if (!runs.contains(r[1])) {
                    errors.add(InputError.of(out.resolve("runs").toString(), r[0], "a committed run id: "
                            + Names.expectedOneOf(r[1], runs), "'" + r[1] + "'"));
                }
            }
            if (!errors.isEmpty()) {
                throw new InvalidInputException(errors);
            }
            List<String> objectives = objectives(duck);
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
            try (PreparedStatement st = duck.connection.prepareStatement(sql.toString())) {
                st.setString(1, runA);
                st.setString(2, runB);
                for (int i = 0; i < objectives.size(); i++) {
                    st.setDouble(3 + i, tolerance);
                }
                System.out.printf(Locale.ROOT, "frontier diff %s -> %s (objectives %s, tolerance %.3g)%n", runA, runB,
                        objectives, tolerance);
                try (ResultSet rs = st.executeQuery()) {
                    int n = Duck.print(rs, System.out, Integer.MAX_VALUE);
                    if (n == 0) {
                        System.out.println("no frontier changes");
                    }
                }
            }
        }
        return 0;
    }

    /** RUN_B's objective columns from the manifest, checked against the known metric columns. */
    private List<String> objectives(Duck duck) throws SQLException {
        List<String> cols = new ArrayList<>();
        try (PreparedStatement st = duck.connection.prepareStatement(
                "SELECT objectives FROM runs WHERE run_id = ?")) {
            st.setString(1, runB);
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
}
