/**
 * Accelerators: datasheet presets (catalog/chips.csv), per-generation calibration families (catalog/families.csv),
 * scale-out networks (catalog/scaleout.csv) and the measured scale-up collective curves of each family
 * (catalog/nccl_allreduce_8gpu.csv). The bottom of the engine: it depends on nothing but spec.
 */
package io.ridgeline.engine.hardware;
