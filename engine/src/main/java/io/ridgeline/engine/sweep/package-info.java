/**
 * The spec vocabulary: sweep files (and {@code eval} points, which are one-point sweeps) and their grids. A file
 * (YAML or JSON) is read into a located tree ({@link io.ridgeline.engine.spec.SpecNode}), validated in one pass that
 * collects every error ({@link io.ridgeline.engine.sweep.SweepLoader}), and compiled into a {@link
 * io.ridgeline.engine.sweep.SweepSpec} whose mixed-radix {@link io.ridgeline.engine.sweep.Grid} any executor decodes
 * from an index. Names and numbers only: the evaluation package resolves them. No Spark, no files beyond the spec.
 */
package io.ridgeline.engine.sweep;
