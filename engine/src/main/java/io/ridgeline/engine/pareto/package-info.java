/**
 * Multi-objective non-dominated sets (Pareto frontiers, "skylines"): every objective is turned into minimisation
 * once, a {@link io.ridgeline.engine.pareto.Skyline} keeps the points no other point dominates, and two skylines merge
 * into the skyline of their union, so frontiers are computed per partition and merged per group (Börzsönyi, Kossmann
 * and Stocker 2001, "The Skyline Operator", block-nested-loops variant).
 */
package io.ridgeline.engine.pareto;
