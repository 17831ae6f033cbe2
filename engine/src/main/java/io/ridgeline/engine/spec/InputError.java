package io.ridgeline.engine.spec;

import java.util.List;
import java.util.Objects;

/**
 * One problem in user input: which file, where in it, which field, what was expected and what was found.
 *
 * <p>Rendered as {@code sweeps/nightly.yaml:14:7: axes.dram[2].stacks: expected an integer in [1, 16], found 0}.
 * Line and column are 0 when unknown (flags, programmatic input).
 */
public record InputError(String source, int line, int column, String fieldPath, String expected, String found) {

    public InputError {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(fieldPath, "fieldPath");
        Objects.requireNonNull(expected, "expected");
        found = found == null ? "nothing" : found;
    }

    /** An error in input that has no line structure (command-line flags, API calls). */
    public static InputError of(String source, String fieldPath, String expected, String found) {
        return new InputError(source, 0, 0, fieldPath, expected, found);
    }

    /** The one-line message users see. */
    public String message() {
        StringBuilder sb = new StringBuilder(source);
        if (line > 0) {
            sb.append(':').append(line);
            if (column > 0) {
                sb.append(':').append(column);
            }
        }
        sb.append(": ").append(fieldPath).append(": expected ").append(expected).append(", found ").append(found);
        return sb.toString();
    }

    /** The message without the source and position: "plan.tp: expected a divisor of ..., found 5" (a row's detail). */
    public String detail() {
        return fieldPath + ": expected " + expected + ", found " + found;
    }

    /** Several errors as one detail text, joined by "; ". */
    public static String details(List<InputError> errors) {
        StringBuilder sb = new StringBuilder();
        for (InputError e : errors) {
            sb.append(sb.length() == 0 ? "" : "; ").append(e.detail());
        }
        return sb.toString();
    }

    /** The same problem at another place: a file position and a field path prefix (a plan inside a spec). */
    public InputError at(String source, int line, int column, String pathPrefix) {
        return new InputError(source, line, column, pathPrefix + fieldPath, expected, found);
    }

    @Override
    public String toString() {
        return message();
    }

    /** Renders several errors, one per line. */
    public static String render(List<InputError> errors) {
        StringBuilder sb = new StringBuilder();
        for (InputError e : errors) {
            if (sb.length() > 0) {
                sb.append('\n');
            }
            sb.append(e.message());
        }
        return sb.toString();
    }
}
