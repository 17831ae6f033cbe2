/**
 * SQL over the results tables by engines other than the embedded DuckDB of {@code ridgeline sql}: Spark SQL for
 * results that live on a cluster's storage ({@code sql --engine spark}), with the same three views (points, frontier,
 * runs), read-only, and the same text and CSV output.
 */
package io.ridgeline.jobs.sql;
