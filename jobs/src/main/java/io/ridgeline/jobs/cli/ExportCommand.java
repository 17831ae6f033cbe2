package io.ridgeline.jobs.cli;

import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.jobs.report.ColumnSelector;
import io.ridgeline.jobs.report.ExportColumns;
import io.ridgeline.jobs.report.CsvExport;
import io.ridgeline.jobs.report.ResultRows;
import io.ridgeline.jobs.report.TcoAssumption;
import io.ridgeline.jobs.report.TcoWorkbook;
import io.ridgeline.jobs.sweep.RecordedCosts;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
import java.util.concurrent.Callable;

/**
 * {@code ridgeline export}: one run's frontier and/or points as CSV (units in the headers) and as a TCO workbook whose
 * cost columns are live formulas over an Assumptions sheet. Reads the Parquet output with DuckDB; no Spark.
 */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = "Export a run as CSV and as an XLSX TCO workbook with live formulas.")
public final class ExportCommand implements Callable<Integer> {
    static final List<String> TABLES = List.of("frontier", "points");
    static final List<String> FORMATS = List.of("csv", "xlsx");

    @Mixin
    ResultsOptions results = new ResultsOptions();

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
    public Integer call() throws SQLException, IOException {
        List<InputError> errors = new ArrayList<>();
        checkNames(tables, TABLES, "--table", errors);
        checkNames(formats, FORMATS, "--format", errors);
        if (runTokens != null && !(runTokens > 0)) {
            errors.add(InputError.of("--run-tokens", "run-tokens", "a positive token count",
                    String.valueOf(runTokens)));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        try (Duck duck = new Duck(results.out)) {
            Connection c = duck.connection;
            requireViews(duck, results.out, tables);
            String runId = results.runId(c);
            RecordedCosts costs = recordedCosts(c, runId);
            List<ResultRows> forCsv = new ArrayList<>();
            List<ResultRows> forXlsx = new ArrayList<>();
            for (String table : new LinkedHashSet<>(tables)) {
                Set<String> available = ColumnSelector.available(c, table);
                List<String> cols = columns == null ? defaultColumns(c, table, runId, available)
                        : ColumnSelector.check(columns, available, results.out.resolve(table).toString(), "--columns");
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
        return 0;
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
                + String.join(", ", counts) + " FROM " + table + " WHERE run_id = ?"
                + (results.where == null || results.where.isBlank() ? "" : " AND (" + results.where + ")")
                + " GROUP BY 1";
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
            if (results.where == null) {
                throw e;
            }
            String msg = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
            throw new InvalidInputException(InputError.of("--where", "where", "a SQL condition over the "
                    + "columns of " + table, msg));
        }
        return ExportColumns.defaults(phases, available, nonNull);
    }

    static void checkNames(List<String> given, List<String> known, String flag, List<InputError> errors) {
        for (int i = 0; i < given.size(); i++) {
            if (!known.contains(given.get(i))) {
                errors.add(InputError.of(flag, flag.substring(2) + "[" + i + "]", Names.expectedOneOf(given.get(i),
                        known), "'" + given.get(i) + "'"));
            }
        }
    }

    static void requireViews(Duck duck, Path out, List<String> tables) {
        List<InputError> errors = new ArrayList<>();
        for (String t : new LinkedHashSet<>(tables)) {
            if (!duck.views.contains(t)) {
                errors.add(InputError.of(out.resolve(t).toString(), "--table", "Parquet files of a committed run "
                        + "(the sweep's output.points may be none)", "no " + t + " table"));
            }
        }
        if (!duck.views.contains("runs")) {
            errors.add(InputError.of(out.resolve("runs").toString(), "--out", "a runs table (committed runs)",
                    "no runs table"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
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
        m.put("results", results.out.toAbsolutePath().normalize().toString());
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
