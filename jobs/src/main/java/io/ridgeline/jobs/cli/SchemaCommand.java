package io.ridgeline.jobs.cli;

import io.ridgeline.schema.ResultsSchema;
import picocli.CommandLine.Command;

/** Prints the output tables' columns, types, units and docs. */
@Command(name = "schema", mixinStandardHelpOptions = true,
        description = "Print the columns of the points, frontier and runs tables.")
public final class SchemaCommand implements Runnable {
    @Override
    public void run() {
        System.out.print(ResultsSchema.describe());
    }
}
