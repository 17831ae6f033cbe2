/**
 * Clusters and their networks: {@link io.ridgeline.engine.network.SystemSpec} (chips in scale-up domains joined by a
 * scale-out network or fabric), collectives and placement (measured NCCL curves inside a scale-up domain, alpha-beta
 * across domains, hierarchical all-reduce, TP innermost) and scale-out topologies built from catalogue links and
 * switches.
 */
package io.ridgeline.engine.network;
