package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
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

    @Override
    public Integer call() throws SQLException {
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
