package io.ridgeline.jobs.cli;

import io.ridgeline.engine.cost.TcoParameters;
import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.jobs.report.ColumnSelector;
import io.ridgeline.jobs.report.CsvExport;
import io.ridgeline.jobs.report.ResultRows;
import io.ridgeline.jobs.report.TcoAssumption;
import io.ridgeline.jobs.report.TcoWorkbook;
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
    /** Columns exported unless --columns says otherwise (plan, hardware, headline metrics). */
    static final List<String> DEFAULT_COLUMNS = List.of("frontier_group", "point_index", "status", "model", "phase",
            "seq_len", "global_batch", "chip", "gpu_count", "scale_out", "tp", "pp", "dp", "cp", "ep", "micro_batch",
            "recompute", "precision", "bottleneck", "step_time_s", "tokens_per_s", "tokens_per_s_per_gpu",
            "mfu_fraction", "hbm_bytes", "energy_per_step_j", "cluster_tdp_w", "cost_usd");

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

    @Option(names = "--run-tokens", defaultValue = "3e11", description = "Tokens per training run, the workbook's "
            + "$/run assumption (default: ${DEFAULT-VALUE}).")
    double runTokens;

    @Override
    public Integer call() throws SQLException, IOException {
        List<InputError> errors = new ArrayList<>();
        checkNames(tables, TABLES, "--table", errors);
        checkNames(formats, FORMATS, "--format", errors);
        if (!(runTokens > 0)) {
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
            List<ResultRows> forCsv = new ArrayList<>();
            List<ResultRows> forXlsx = new ArrayList<>();
            for (String table : new LinkedHashSet<>(tables)) {
                Set<String> available = ColumnSelector.available(c, table);
                List<String> cols = columns == null
                        ? DEFAULT_COLUMNS.stream().filter(available::contains).toList()
                        : ColumnSelector.check(columns, available, results.out.resolve(table).toString(), "--columns");
                if (formats.contains("csv")) {
                    forCsv.add(query(c, table, cols, runId, false));
                }
                if (formats.contains("xlsx")) {
                    List<String> wide = new ArrayList<>(cols);
                    for (String req : TcoWorkbook.REQUIRED) {
                        if (!wide.contains(req)) {
                            wide.add(req);
                        }
                    }
                    for (String extra : List.of("cost_usd", "cluster_tdp_w")) {
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
                for (ResultRows r : forXlsx) {
                    if (r.size() > TcoWorkbook.MAX_ROWS) {
                        throw new InvalidInputException(InputError.of("--table", r.table(), "at most "
                                + TcoWorkbook.MAX_ROWS + " rows for a workbook (use --format csv or --where)",
                                r.size() + " rows"));
                    }
                }
                Path f = to.resolve(runId + "-tco.xlsx");
                new TcoWorkbook(TcoParameters.defaults(), runTokens, about(c, runId)).write(forXlsx, f);
                System.out.printf("wrote %s (sheets %s, %s, %s; %d cost formulas per row over %s)%n", f,
                        TcoWorkbook.ASSUMPTIONS, String.join(", ", forXlsx.stream().map(r -> TcoWorkbook.sheetName(
                                r.table())).toList()), TcoWorkbook.ABOUT, TcoWorkbook.formulaHeaders().size(),
                        TcoWorkbook.ASSUMPTIONS);
            }
        }
        return 0;
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
     * One run's rows; the workbook takes feasible rows only (infeasible points have no step time to price). Frontier
     * rows sort by group then throughput, points by index.
     */
    private ResultRows query(Connection c, String table, List<String> cols, String runId, boolean feasibleOnly)
            throws SQLException {
        return results.query(c, table, cols, runId, feasibleOnly ? "step_time_s IS NOT NULL AND tokens_per_s > 0"
                : null, table.equals("frontier") ? "frontier_group, tokens_per_s DESC NULLS LAST"
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
        m.put("run_tokens_default", String.valueOf(runTokens) + " (" + TcoAssumption.RUN_TOKENS.label() + ")");
        return m;
    }
}
