/**
 * Reports over committed results, without Spark: run and column selection over the DuckDB views, CSV export with units
 * in the headers, the TCO workbook (POI, live formulas over an Assumptions sheet that follow
 * {@link io.ridgeline.engine.cost.TcoModel}, MODEL.md sec. 8), charts (JFreeChart, drawn once onto a PNG raster or
 * JFreeSVG's SVG Graphics2D: frontier scatter, step-time breakdown, memory headroom, a chip roofline after Williams,
 * Waterman and Patterson 2009 with a frontier's GEMMs on it), and the self-contained HTML run report that puts them
 * together with the run manifest and the frontier diff.
 */
package io.ridgeline.jobs.report;
