package io.ridgeline.jobs.cli;

import io.ridgeline.jobs.sql.SparkSessions;
import picocli.CommandLine.Option;

/** {@code --master}: where Spark runs, for {@code sweep} and {@code sql --engine spark} ({@link SparkSessions}). */
final class SparkMaster {
    @Option(names = "--master", description = "Spark master (default: spark-submit's, else local[*]); sql uses it "
            + "with --engine spark.")
    String master;
}
