package io.ridgeline.jobs.cli;

import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.report.ColumnSelector;
import io.ridgeline.jobs.report.ExportColumns;
import io.ridgeline.jobs.report.CsvExport;
import io.ridgeline.jobs.report.ResultRows;
import io.ridgeline.jobs.report.TcoAssumption;
import io.ridgeline.jobs.report.TcoWorkbook;
import io.ridgeline.jobs.sweep.RecordedCosts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * {@code ridgeline export}: one run's frontier and/or points as CSV (units in the headers) and as a TCO workbook whose
 * cost columns are live formulas over an Assumptions sheet. Reads the Parquet output with DuckDB; no Spark.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Export a run as CSV and as an XLSX TCO workbook with live formulas.")
public final class ExportCommand extends RunCommand {
    static final List<String> FORMATS = List.of("csv", "xlsx");

    @Option(names = "--table", split = ",", defaultValue = "frontier",
            description = "frontier, points or both (default: ${DEFAULT-VALUE}).")
    List<String> tables;

    @Option(names = "--format", split = ",", defaultValue = "csv,xlsx",
            description = "csv, xlsx or both (default: ${DEFAULT-VALUE}).")
    List<String> formats;

    @Option(names = "--columns", split = ",", description = "Result columns to export (default: plan, hardware and "
            + "headline metrics). The workbook adds chip, gpu_count, step_time_s and tokens_per_s if missing.")
    List<String> columns;

    @Option(names = "--to", defaultValue = "export", description = "Directory for the files (default: "
            + "${DEFAULT-VALUE}).")
    Path to;

    @Option(names = "--run-tokens", description = "Tokens per run, the workbook's $/run assumption (default: the "
            + "run's cost.tokens, else 3e11).")
    Double runTokens;

    @Override
    void check(List<InputError> errors) {
        checkNames(tables, TABLES, "--table", errors);
        checkNames(formats, FORMATS, "--format", errors);
        if (runTokens != null && !(runTokens > 0)) {
            errors.add(InputError.of("--run-tokens", "run-tokens", "a positive token count",
                    String.valueOf(runTokens)));
        }
    }

    @Override
    List<String> tables() {
        return tables;
    }

    @Override
    void run(Duck duck, String runId) throws SQLException, IOException {
        Connection c = duck.connection;
        RecordedCosts costs = recordedCosts(c, runId);
        List<ResultRows> forCsv = new ArrayList<>();
        List<ResultRows> forXlsx = new ArrayList<>();
        for (String table : new LinkedHashSet<>(tables)) {
            Set<String> available = ColumnSelector.available(c, table);
            List<String> cols = columns == null ? defaultColumns(c, table, runId, available)
                    : ColumnSelector.check(columns, available, results.out().resolve(table).toString(), "--columns");
            if (formats.contains("csv")) {
                forCsv.add(query(c, table, cols, runId, false));
            }
            if (formats.contains("xlsx")) {
                List<String> wide = new ArrayList<>(cols);
                wide.removeAll(TcoWorkbook.RECOMPUTED);
                List<String> needed = new ArrayList<>(List.of("phase", "cost_usd", "cluster_tdp_w"));
                needed.addAll(TcoWorkbook.REQUIRED);
                needed.addAll(TcoWorkbook.TRAINING_REQUIRED);
                needed.addAll(TcoWorkbook.INFERENCE_REQUIRED);
                needed.addAll(TcoWorkbook.FABRIC_REQUIRED);
                for (String extra : needed) {
                    if (!wide.contains(extra) && available.contains(extra)) {
                        wide.add(extra);
                    }
                }
                forXlsx.add(query(c, table, wide, runId, true));
            }
        }
        for (ResultRows r : forCsv) {
            Path f = to.resolve(runId + "-" + r.table() + ".csv");
            CsvExport.write(r, f);
            System.out.printf("wrote %s (%d rows, %d columns)%n", f, r.size(), r.columns().size());
        }
        if (!forXlsx.isEmpty()) {
            writeWorkbook(c, runId, costs, forXlsx);
        }
    }

    private void writeWorkbook(Connection c, String runId, RecordedCosts costs, List<ResultRows> forXlsx)
            throws SQLException, IOException {
        for (ResultRows r : forXlsx) {
            if (r.size() > TcoWorkbook.MAX_ROWS) {
                throw new InvalidInputException(InputError.of("--table", r.table(), "at most "
                        + TcoWorkbook.MAX_ROWS + " rows for a workbook (use --format csv or --where)",
                        r.size() + " rows"));
            }
        }
        if (costs == null) {
            System.out.printf("note: run %s predates recorded cost parameters (runs.cost_*): the workbook uses the "
                    + "defaults, which may differ from its Parquet costs%n", runId);
        }
        TcoParameters parameters = costs != null ? costs.parameters() : TcoParameters.defaults();
        double tokens = runTokens != null ? runTokens : costs != null && costs.tokens() > 0 ? costs.tokens()
                : TcoAssumption.DEFAULT_RUN_TOKENS;
        Map<String, String> about = about(c, runId);
        about.put("cost parameters", costs != null ? "the run's recorded cost section (runs.cost_*), "
                + costs.fabrics().size() + " priced fabrics" : "defaults (TcoParameters): the run recorded none");
        about.put("tokens per run", tokens + (runTokens != null ? " (--run-tokens)" : costs != null
                && costs.tokens() > 0 ? " (the run's cost.tokens)" : " (default; the run set no cost.tokens)"));
        Path f = to.resolve(runId + "-tco.xlsx");
        new TcoWorkbook(parameters, costs != null ? costs.fabrics() : List.of(), tokens, about).write(forXlsx, f);
        List<String> sheets = new ArrayList<>();
        for (ResultRows r : forXlsx) {
            sheets.add(String.format("%s (%d rows, %d cost formulas per row)", TcoWorkbook.sheetName(r.table()),
                    r.size(), TcoWorkbook.formulaHeaders(r).size()));
        }
        System.out.printf("wrote %s (sheets %s, %s, %s; formulas over %s)%n", f, TcoWorkbook.ASSUMPTIONS,
                String.join(", ", sheets), TcoWorkbook.ABOUT, TcoWorkbook.ASSUMPTIONS);
    }

    /** The run's recorded cost inputs, or null for runs written before the manifest recorded them. */
    static RecordedCosts recordedCosts(Connection c, String runId) throws SQLException {
        if (!ColumnSelector.available(c, "runs").containsAll(RecordedCosts.COLUMNS)) {
            return null;
        }
        try (PreparedStatement st = c.prepareStatement("SELECT " + String.join(", ", RecordedCosts.COLUMNS)
                + " FROM runs WHERE run_id = ?")) {
            st.setString(1, runId);
            try (ResultSet rs = st.executeQuery()) {
                if (!rs.next()) {
                    return null;
                }
                Object[] v = new Object[RecordedCosts.COLUMNS.size()];
                for (int i = 0; i < v.length; i++) {
                    v[i] = rs.getObject(i + 1);
                }
                return RecordedCosts.read(v);
            }
        }
    }

    /** The default columns of the phases the run's rows have, without columns null in every row. */
    private List<String> defaultColumns(Connection c, String table, String runId, Set<String> available)
            throws SQLException {
        List<String> candidates = ExportColumns.candidates(available);
        List<String> counts = new ArrayList<>();
        for (String col : candidates) {
            counts.add("count(" + ColumnSelector.quote(col) + ")");
        }
        Set<String> phases = new LinkedHashSet<>();
        Set<String> nonNull = new LinkedHashSet<>();
        String select = "SELECT " + (available.contains("phase") ? "phase" : "'training'") + ", "
                + String.join(", ", counts) + results.from(table, null) + " GROUP BY 1";
        try (PreparedStatement st = c.prepareStatement(select)) {
            st.setString(1, runId);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    phases.add(rs.getString(1) == null ? "training" : rs.getString(1));
                    for (int i = 0; i < candidates.size(); i++) {
                        if (rs.getLong(i + 2) > 0) {
                            nonNull.add(candidates.get(i));
                        }
                    }
                }
            }
        } catch (SQLException e) {
            throw results.whereError(table, e);
        }
        return ExportColumns.defaults(phases, available, nonNull);
    }

    /**
     * One run's rows; the workbook takes priced rows only (infeasible points have no throughput to price). Frontier
     * rows sort by group then throughput, points by index.
     */
    private ResultRows query(Connection c, String table, List<String> cols, String runId, boolean feasibleOnly)
            throws SQLException {
        return results.query(c, table, cols, runId, feasibleOnly ? "tokens_per_s > 0" : null, table.equals("frontier") ? "frontier_group, tokens_per_s DESC NULLS LAST"
                : "point_index, plan_index", 0);
    }

    /** Provenance for the About sheet, from the run's manifest row. */
    private Map<String, String> about(Connection c, String runId) throws SQLException {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("run_id", runId);
        m.put("results", results.out().toAbsolutePath().normalize().toString());
        Set<String> have = ColumnSelector.available(c, "runs");
        List<String> keys = new ArrayList<>(List.of("sweep_name", "sweep_file", "spec_sha256", "code_version",
                "schema_version", "finished_at", "objectives", "group_by"));
        keys.retainAll(have);
        if (!keys.isEmpty()) {
            try (PreparedStatement st = c.prepareStatement("SELECT " + String.join(", ", keys)
                    + " FROM runs WHERE run_id = ?")) {
                st.setString(1, runId);
                try (ResultSet rs = st.executeQuery()) {
                    if (rs.next()) {
                        for (String k : keys) {
                            Object v = rs.getObject(k);
                            m.put(k, v == null ? "" : v.toString());
                        }
                    }
                }
            }
        }
        m.put("exported_at", Instant.now().toString());
        return m;
    }
}
