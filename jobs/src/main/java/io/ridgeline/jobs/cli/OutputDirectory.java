package io.ridgeline.jobs.cli;

import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * {@code --out}: the results directory a sweep writes and {@code sql}, {@code diff} and {@code plot series} read, kept
 * as typed so that a URI such as hdfs:///x or s3a://bucket/x keeps its slashes (a {@link Path} would fold hdfs:///x
 * into hdfs:/x).
 */
final class OutputDirectory {
    @Option(names = "--out", defaultValue = "results", description = "Output directory (default: ${DEFAULT-VALUE}).")
    String out;

    /** The directory as a local path (DuckDB reads local files only). */
    Path path() {
        return Path.of(out);
    }

    @Override
    public String toString() {
        return out;
    }
}
