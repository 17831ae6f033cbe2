/**
 * The sweep job: grid chunks to Spark partitions, per-partition evaluation and skylines, Parquet tables written to a
 * staging directory and committed atomically, the runs manifest and console progress.
 */
package io.ridgeline.jobs.sweep;
