package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.Callable;

/** {@code ridgeline sql "select ..."}: SQL over the Parquet output with embedded DuckDB; optional CSV export. */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = "Query the points, frontier and runs tables with embedded DuckDB.")
public final class SqlCommand implements Callable<Integer> {
    @Parameters(paramLabel = "QUERY", description = "SQL over the views points, frontier and runs.")
    String query;

    @Mixin
    OutputDirectory out = new OutputDirectory();

    @Option(names = "--csv", description = "Write the full result to this CSV file instead of printing it (the one "
            + "file sql writes; queries themselves are read-only).")
    Path csv;

    @Option(names = "--max-rows", defaultValue = "200", description = "Rows printed (default: ${DEFAULT-VALUE}).")
    int maxRows;

    @Option(names = "--engine", defaultValue = "duckdb", description = "duckdb (embedded, the default) or spark "
            + "(Spark SQL over the same views, e.g. for results on HDFS or S3; same output).")
    String engine;

    @Mixin
    SparkMaster cluster = new SparkMaster();

    @Override
    public Integer call() throws SQLException, java.io.IOException {
        SqlOnEngine.checkEngine(engine);
        if (csv != null) {
            SqlCsv.checkTarget(csv);
        }
        if (!engine.equals("duckdb")) {
            return SqlOnEngine.run(out.out, cluster.master, query, csv, maxRows);
        }
        try (Duck duck = new Duck(out.path())) {
            if (duck.views.isEmpty()) {
                throw new InvalidInputException(InputError.of("--out", "out", "committed runs under " + out,
                        "no Parquet tables"));
            }
            // Refused before anything runs unless it is one read-only query (COPY, ATTACH, SET... never run).
            try (PreparedStatement st = ReadOnlyQuery.prepare(duck.connection, query, duck.views);
                 ResultSet rs = executeQuery(st, duck.views)) {
                if (csv != null) {
                    long rows = SqlCsv.write(rs, csv, e -> ReadOnlyQuery.invalid(duck.views,
                            ReadOnlyQuery.firstLine(e)));
                    System.out.printf("wrote %s (%,d rows)%n", csv, rows);
                    return 0;
                }
                try {
                    Duck.print(rs, System.out, maxRows);
                } catch (SQLException e) {
                    throw ReadOnlyQuery.invalid(duck.views, ReadOnlyQuery.firstLine(e));
                }
            }
        }
        return 0;
    }

    private static ResultSet executeQuery(PreparedStatement st, Object views) {
        try {
            return st.executeQuery();
        } catch (SQLException e) {
            throw ReadOnlyQuery.invalid(views, ReadOnlyQuery.firstLine(e));
        }
    }
}
