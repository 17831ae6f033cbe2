package io.ridgeline.jobs.cli;

import picocli.CommandLine.Option;

import java.io.PrintStream;

/** How much of the frontier the sweep's console summary shows ({@code --frontier-groups}, {@code --frontier-lines}). */
final class SummaryOptions {
    @Option(names = "--frontier-lines", defaultValue = "5", description = "Frontier rows shown per group (default: "
            + "${DEFAULT-VALUE}).")
    int frontierLines;

    @Option(names = "--frontier-groups", defaultValue = "8", description = "Frontier groups shown (default: "
            + "${DEFAULT-VALUE}); sql shows all.")
    int frontierGroups;

    /** The summary printer with these limits. */
    SweepSummary summary(PrintStream console) {
        return new SweepSummary(console, frontierGroups, frontierLines);
    }
}
