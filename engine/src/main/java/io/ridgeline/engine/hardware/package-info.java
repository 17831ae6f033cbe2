/** Accelerators and clusters: datasheet presets (catalog/chips.csv), per-generation calibration families (catalog/families.csv), scale-out networks, and {@link io.ridgeline.engine.hardware.SystemSpec}. */
package io.ridgeline.engine.hardware;
