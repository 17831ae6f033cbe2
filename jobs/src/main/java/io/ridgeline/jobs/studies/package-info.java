/**
 * Drivers for the seed-paper studies of docs/studies that sweeps cannot express yet (study 3: the inference phase on
 * technology-derived chips). Each evaluates the same grid as its sweep file by calling the engine and writes CSV.
 */
package io.ridgeline.jobs.studies;
