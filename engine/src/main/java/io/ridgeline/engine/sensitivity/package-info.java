/**
 * Where to invest: the speed-up of every evaluated point from +10% of each hardware resource, holding its plan and
 * re-searching it, per dollar and per watt of what the +10% costs, and the energy split by component
 * (docs/SENSITIVITY.md). Runs behind the evaluation facade ({@code evaluation.RowAnalysis}) through the same phase
 * models as the points themselves.
 */
package io.ridgeline.engine.sensitivity;
