package io.ridgeline.engine.calibration;

/**
 * One calibratable constant, declared once for every entry of its catalogue: the path pattern
 * {@code <catalogue>.<entry>.<field>} (e.g. {@code families.*.gemm_peak_fraction}), its unit (the catalogue file's),
 * what it means physically, and the bounds a fit keeps it in.
 *
 * @param catalogue        families, scaleout or stacks
 * @param field            the column (families, scaleout) or {@code section.key} (stacks)
 * @param fittedByDefault  fitted when {@code calibrate} is not given {@code --parameters}: the efficiencies and host
 *                         costs that end-to-end runs constrain; shape constants (tile overhead, overlap exponent,
 *                         L2 fraction, network latency) only on request
 * @param stepFraction     the forward-difference step of a fit's Jacobian, as a fraction of the bounds' range (larger
 *                         for constants a prediction follows in steps, such as a memory reserve that changes the
 *                         whole requests the KV cache admits)
 */
public record ParameterKind(String catalogue, String field, String unit, String meaning, double lower, double upper,
                            boolean fittedByDefault, double stepFraction) {

    public ParameterKind {
        if (!(lower < upper)) {
            throw new IllegalArgumentException("bounds of " + pattern() + " must satisfy lower < upper");
        }
        if (!(stepFraction > 0 && stepFraction < 1)) {
            throw new IllegalArgumentException("step_fraction of " + pattern() + " must lie in (0, 1)");
        }
    }

    /** The declared pattern, e.g. {@code families.*.gemm_peak_fraction}. */
    public String pattern() {
        return catalogue + ".*." + field;
    }

    /** The path of this constant for one catalogue entry. */
    public String path(String entry) {
        return catalogue + "." + entry + "." + field;
    }

    /** The entry a path names when it has this kind's shape (entry ids may contain dots, e.g. nemo@24.07), else null. */
    public String entryOf(String path) {
        String head = catalogue + ".";
        String tail = "." + field;
        if (path.startsWith(head) && path.endsWith(tail) && path.length() > head.length() + tail.length()) {
            return path.substring(head.length(), path.length() - tail.length());
        }
        return null;
    }
}
