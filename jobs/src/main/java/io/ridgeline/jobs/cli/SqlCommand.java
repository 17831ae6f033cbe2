package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Callable;

/** {@code ridgeline sql "select ..."}: SQL over the Parquet output with embedded DuckDB; optional CSV export. */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = "Query the points, frontier and runs tables with embedded DuckDB.")
public final class SqlCommand implements Callable<Integer> {
    @Parameters(paramLabel = "QUERY", description = "SQL over the views points, frontier and runs.")
    String query;

    @Option(names = "--out", defaultValue = "results", description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--csv", description = "Write the full result to this CSV file instead of printing it.")
    Path csv;

    @Option(names = "--max-rows", defaultValue = "200", description = "Rows printed (default: ${DEFAULT-VALUE}).")
    int maxRows;

    @Option(names = "--engine", defaultValue = "duckdb", description = "duckdb (embedded, the default) or spark "
            + "(Spark SQL over the same views, e.g. for results on HDFS or S3; same output).")
    String engine;

    @Option(names = "--master", description = "Spark master for --engine spark (default: spark-submit's, else "
            + "local[*]).")
    String master;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws SQLException, java.io.IOException {
        SqlOnEngine.checkEngine(engine);
        if (!engine.equals("duckdb")) {
            // --out as typed: a Path would fold hdfs:///x into hdfs:/x.
            CommandLine.ParseResult pr = spec.commandLine().getParseResult();
            String rawOut = pr.hasMatchedOption("--out") ? pr.matchedOption("--out").stringValues().get(0)
                    : out.toString();
            return SqlOnEngine.run(rawOut, master, query, csv, maxRows);
        }
        try (Duck duck = new Duck(out); Statement st = duck.connection.createStatement()) {
            if (duck.views.isEmpty()) {
                throw new InvalidInputException(InputError.of("--out", "out", "committed runs under " + out,
                        "no Parquet tables"));
            }
            try {
                if (csv != null) {
                    st.execute("COPY (" + query + ") TO '" + csv.toString().replace("'", "''") + "' (HEADER, "
                            + "DELIMITER ',')");
                    System.out.println("wrote " + csv);
                    return 0;
                }
                try (ResultSet rs = st.executeQuery(query)) {
                    Duck.print(rs, System.out, maxRows);
                }
            } catch (SQLException e) {
                String msg = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
                throw new InvalidInputException(InputError.of("sql", "QUERY", "a valid query over "
                        + duck.views, msg));
            }
        }
        return 0;
    }
}
