package io.ridgeline.jobs.sweep;

/**
 * A second run asked for a run id that a live run holds. Not a bug and not bad input: the CLI prints the one-line
 * message (who holds it, where the lock is) and exits with 1, before Spark starts.
 */
public final class RunLockedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RunLockedException(String message) {
        super(message, null, false, false);
    }
}
