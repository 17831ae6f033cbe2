/**
 * Reports over committed results, without Spark: run and column selection over the DuckDB views, CSV export with units
 * in the headers, the TCO workbook (POI, live formulas over an Assumptions sheet that follow
 * {@link io.ridgeline.engine.cost.TcoModel}, MODEL.md sec. 8) and PNG charts (JFreeChart, headless): frontier
 * scatter, step-time breakdown and a chip roofline (Williams, Waterman and Patterson 2009).
 */
package io.ridgeline.jobs.report;
