package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.sweep.SweepEstimate;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Locale;

/**
 * How large a sweep may be before it needs {@code --yes} ({@code --max-points}, {@code --max-minutes}), and
 * {@code --dry-run}: validate and estimate, start nothing.
 */
final class SweepLimits {
    @Option(names = "--max-points", defaultValue = "5000000", description = "Grid size needing --yes (default: "
            + "${DEFAULT-VALUE}).")
    long maxPoints;

    @Option(names = "--max-minutes", defaultValue = "30", description = "Estimated minutes needing --yes (default: "
            + "${DEFAULT-VALUE}).")
    double maxMinutes;

    @Option(names = "--yes", description = "Run even when the grid is above --max-points or the estimate above "
            + "--max-minutes.")
    boolean yes;

    @Option(names = "--dry-run", description = "Validate and estimate only; start no Spark.")
    boolean dryRun;

    /** Refuses a sweep over the limits unless --yes or --dry-run was given. */
    void check(Path file, SweepEstimate est) {
        boolean tooBig = est.gridPoints() > maxPoints || est.seconds() > maxMinutes * 60;
        if (tooBig && !yes && !dryRun) {
            throw new InvalidInputException(InputError.of(file.toString(), "(grid)", "at most " + maxPoints
                    + " points and " + maxMinutes + " estimated minutes, or --yes", String.format(Locale.ROOT,
                    "%,d points, about %s", est.gridPoints(), SweepCommand.duration(est.seconds()))));
        }
    }
}
