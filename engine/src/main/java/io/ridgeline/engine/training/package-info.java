/** The training step: per-layer forward/backward costs (Megatron-LM), 1F1B pipeline schedule, DP gradient synchronisation, optimizer, activation and model-state memory (Korthikanti et al. 2022), host launch overhead, bottleneck and energy. */
package io.ridgeline.engine.training;
