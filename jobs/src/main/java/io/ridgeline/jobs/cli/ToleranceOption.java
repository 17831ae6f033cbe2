package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import picocli.CommandLine.Option;

/** {@code --tolerance}: the relative change that counts a frontier point as moved ({@code diff} and {@code report}). */
final class ToleranceOption {
    @Option(names = "--tolerance", defaultValue = "0.01", description = "Relative change that counts as moved "
            + "(default: ${DEFAULT-VALUE}); for report, in its diff against the previous run.")
    double tolerance;

    /** The tolerance, refused unless a number >= 0. */
    double checked() {
        if (!(tolerance >= 0)) {
            throw new InvalidInputException(InputError.of("--tolerance", "tolerance", "a number >= 0",
                    String.valueOf(tolerance)));
        }
        return tolerance;
    }
}
