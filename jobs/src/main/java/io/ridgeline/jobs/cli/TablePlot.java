package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;

/** A plot of the rows of one of a run's tables, chosen with {@code --table} (breakdown, sensitivity). */
abstract class TablePlot extends RunCommand {
    @Mixin
    PlotOutput output = new PlotOutput();

    @Option(names = "--table", defaultValue = "frontier", description = "frontier or points (default: "
            + "${DEFAULT-VALUE}).")
    String table;

    /** The size first (on its own), then the table with the plot's other options. */
    @Override
    final void check(List<InputError> errors) {
        output.checkSize();
        checkNames(List.of(table), TABLES, "--table", errors);
        checkPlotOptions(errors);
    }

    /** Adds what is wrong with the plot's own options; none by default. */
    void checkPlotOptions(List<InputError> errors) {
    }

    @Override
    final List<String> tables() {
        return List.of(table);
    }
}
