/**
 * Bottom-up accelerator energy (MODEL.md sec. 8): FLOPs x energy per FLOP + DRAM bytes x energy per byte + wire bytes x
 * link energy per byte + static power x time, capped at TDP x time. Coefficients per chip are built once per system
 * ({@link io.ridgeline.engine.energy.ChipEnergy}); the engines meter FLOPs and bytes and call it once per point.
 */
package io.ridgeline.engine.energy;
