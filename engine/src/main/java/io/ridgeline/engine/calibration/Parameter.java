package io.ridgeline.engine.calibration;

/**
 * One calibratable constant of one catalogue entry: {@code families.ampere.gemm_peak_fraction}. Its unit, meaning and
 * bounds are its kind's.
 */
public record Parameter(String path, String entry, ParameterKind kind) {

    public String unit() {
        return kind.unit();
    }

    public double lower() {
        return kind.lower();
    }

    public double upper() {
        return kind.upper();
    }

    /** The Jacobian's forward-difference step as a fraction of the bounds' range. */
    public double stepFraction() {
        return kind.stepFraction();
    }

    @Override
    public String toString() {
        return path;
    }
}
