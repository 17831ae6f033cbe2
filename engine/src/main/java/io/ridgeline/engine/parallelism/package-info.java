/** Execution plans: Megatron-LM style TP/SP/CP/EP/PP/DP, virtual pipeline stages, ZeRO, recomputation and precision (Narayanan et al. 2021; Korthikanti et al. 2022). */
package io.ridgeline.engine.parallelism;
