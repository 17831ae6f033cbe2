/** Collectives and placement: measured NCCL curves inside a scale-up domain, alpha-beta across domains, hierarchical all-reduce, and where each parallel dimension lands (TP innermost). */
package io.ridgeline.engine.network;
