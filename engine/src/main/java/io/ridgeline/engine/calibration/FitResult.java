package io.ridgeline.engine.calibration;

import java.util.List;

/**
 * What a fit found: the value of each requested parameter (start value for those the cases do not constrain), how
 * long it took and how much it moved the residuals.
 *
 * @param parameters      the requested parameters, in request order
 * @param start           their values before the fit
 * @param values          their values after the fit (equal to {@code start} where {@code fitted[i]} is false)
 * @param fitted          per parameter: moved by the optimiser (false: no case is sensitive to it, or too few cases)
 * @param note            why nothing or not everything was fitted; "" when all were
 * @param casesScored     case evaluations the fit ran (Jacobian columns re-score only the cases that depend on it)
 * @param rmsBefore       root mean square of the weighted relative residuals at the start
 * @param rmsAfter        the same at the solution
 * @param penalty         the ridge strength lambda towards the start values (0: none; infinite: start values kept)
 */
public record FitResult(List<Parameter> parameters, double[] start, double[] values, boolean[] fitted, String note,
                        int cases, int iterations, int evaluations, long casesScored, double seconds,
                        double rmsBefore, double rmsAfter, double penalty) {

    public FitResult {
        parameters = List.copyOf(parameters);
        start = start.clone();
        values = values.clone();
        fitted = fitted.clone();
    }

    public double value(int i) {
        return values[i];
    }

    public double start(int i) {
        return start[i];
    }

    public boolean fitted(int i) {
        return fitted[i];
    }
}
