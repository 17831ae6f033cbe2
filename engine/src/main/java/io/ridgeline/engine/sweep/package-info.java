/**
 * Sweep files and their grids. A sweep file (YAML or JSON) is read into a located tree ({@link
 * io.ridgeline.engine.spec.SpecNode}), validated in one pass that collects every error ({@link
 * io.ridgeline.engine.sweep.SweepLoader}), and compiled into a mixed-radix {@link io.ridgeline.engine.sweep.Grid}
 * whose points any executor decodes from an index. {@link io.ridgeline.engine.sweep.SweepEvaluator} evaluates one grid
 * point: one explicit plan, or every valid plan of the point's hardware ({@link io.ridgeline.engine.sweep.PlanSpace})
 * keeping the best or the per-point frontier. Pure Java: no Spark, no files beyond the sweep file itself.
 */
package io.ridgeline.engine.sweep;
