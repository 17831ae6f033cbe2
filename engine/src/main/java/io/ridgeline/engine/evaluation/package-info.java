/**
 * The engine's one evaluation path, shared by both phases and every front end: the {@link
 * io.ridgeline.engine.evaluation.Evaluator} facade ({@code evaluate(point) -> rows}) that sweeps, {@code eval} and
 * studies call, and that {@code validate} and {@code calibrate} call for measured cases read as one-point specs
 * ({@link io.ridgeline.engine.evaluation.PointEvaluators}, {@code Evaluator.result(point)}); phase-neutral {@link io.ridgeline.engine.evaluation.Infeasibility}, {@link
 * io.ridgeline.engine.evaluation.Bottleneck} and {@link io.ridgeline.engine.evaluation.PlanResult}; the one
 * plan-selection routine ({@link io.ridgeline.engine.evaluation.PlanSelection}: best, per-point frontier, closest
 * miss); and the result row ({@link io.ridgeline.engine.evaluation.ResultRow}) writers read without knowing the phase.
 * The phases (training, inference) plug in underneath as {@link io.ridgeline.engine.evaluation.PhaseModel}s.
 */
package io.ridgeline.engine.evaluation;
