/**
 * Reproducible fits of the few constants chosen on measured rows (scripts/fit-*): each main prints the grid it
 * searched, the error per value and the chosen value, so a reader can rerun the fit and check the catalogue.
 */
package io.ridgeline.engine.fit;
