package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.jobs.sql.SparkSqlEngine;
import io.ridgeline.jobs.sql.SqlEngine;
import io.ridgeline.jobs.sql.SqlOutput;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code ridgeline sql --engine spark}: the same query, views and output formats as the DuckDB path of {@link
 * SqlCommand}, run by another {@link SqlEngine}.
 */
final class SqlOnEngine {
    static final List<String> ENGINES = List.of("duckdb", "spark");

    private SqlOnEngine() {
    }

    /** Refuses an unknown engine name, listing the known ones. */
    static void checkEngine(String engine) {
        if (!ENGINES.contains(engine)) {
            throw new InvalidInputException(InputError.of("--engine", "engine", Names.expectedOneOf(engine, ENGINES),
                    "'" + engine + "'"));
        }
    }

    /**
     * @param out the results directory as typed (a URI such as hdfs:///x or s3a://bucket/x keeps its slashes)
     */
    static int run(String out, String master, String query, Path csv, int maxRows) throws IOException {
        // Refuse a statement that is not a read-only query before a Spark session (or a cluster) is started.
        SparkSqlEngine.checkReadOnly(query);
        boolean uri = out.matches("^[A-Za-z][A-Za-z0-9+.-]*://.*") && !out.startsWith("file:");
        if (!uri && !Files.isDirectory(Path.of(out.replaceFirst("^file:(//)?", "")))) {
            throw new InvalidInputException(InputError.of("--out", "out", "an output directory of ridgeline sweep",
                    "no directory " + out));
        }
        try (SqlEngine engine = SparkSqlEngine.open(out, master)) {
            if (engine.views().isEmpty()) {
                throw new InvalidInputException(InputError.of("--out", "out", "committed runs under " + out,
                        "no Parquet tables"));
            }
            if (csv != null) {
                try (SqlOutput.Csv sink = new SqlOutput.Csv(csv)) {
                    engine.query(query, sink);
                }
                System.out.println("wrote " + csv);
                return 0;
            }
            SqlOutput.Text sink = new SqlOutput.Text(System.out, maxRows);
            engine.query(query, sink);
            sink.finish();
        }
        return 0;
    }
}
