package io.ridgeline.engine.spec;

import java.util.List;

/**
 * Thrown when user input (a sweep file, a catalogue, a case file, a flag) is invalid. Carries every error found, not
 * just the first, so a user fixes a file in one pass. Bugs are {@link IllegalStateException}, never this.
 */
public final class InvalidInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient List<InputError> errors;

    public InvalidInputException(List<InputError> errors) {
        super(InputError.render(errors));
        if (errors.isEmpty()) {
            throw new IllegalStateException("an InvalidInputException needs at least one error");
        }
        this.errors = List.copyOf(errors);
    }

    public InvalidInputException(InputError error) {
        this(List.of(error));
    }

    public List<InputError> errors() {
        return errors;
    }
}
