/**
 * The training step: per-layer forward/backward costs (Megatron-LM), 1F1B pipeline schedule, DP gradient
 * synchronisation, optimizer, activation and model-state memory (Korthikanti et al. 2022), host launch overhead,
 * bottleneck and energy; the plan space a search walks ({@link io.ridgeline.engine.training.PlanSpace}, {@link
 * io.ridgeline.engine.training.PlanSearch}) and the training phase behind the evaluator.
 */
package io.ridgeline.engine.training;
