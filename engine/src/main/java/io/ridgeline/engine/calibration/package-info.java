/**
 * Calibration: catalogue constants fitted to measured cases, with honest error estimates. One registry
 * ({@link io.ridgeline.engine.calibration.ParameterRegistry}) declares every calibratable constant (catalogue path,
 * unit, physical meaning, bounds); a fit is bounded Levenberg-Marquardt least squares on relative error
 * ({@link io.ridgeline.engine.calibration.Fitter}); leave-one-source-out cross-validation shows over-fitting
 * ({@link io.ridgeline.engine.calibration.CrossValidation}); a profile
 * ({@link io.ridgeline.engine.calibration.CalibrationProfile}) is applied by building the catalogues once with its
 * values (parse-time substitution), so evaluation costs nothing extra; prediction intervals come from the
 * cross-validated residuals ({@link io.ridgeline.engine.calibration.IntervalModel}), a random-effects interval over
 * their sources per group ({@link io.ridgeline.engine.calibration.SourceEffects}). The recipe of the shipped fits is
 * catalog/fits.yaml ({@link io.ridgeline.engine.calibration.FitRecipe}). docs/CALIBRATION.md describes all of it.
 */
package io.ridgeline.engine.calibration;
