/**
 * Total cost of ownership (MODEL.md sec. 8): capital (chip, server overhead, network) amortized straight-line plus
 * electricity, divided by availability, giving $/GPU-hour, $/training run and $/million tokens. Defaults follow the
 * Epoch AI training-cost model and public cluster TCO calculators; every one is a parameter.
 */
package io.ridgeline.engine.cost;
