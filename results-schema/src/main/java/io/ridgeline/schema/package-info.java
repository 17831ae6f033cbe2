/**
 * The Parquet contract of every output table (points, frontier, runs): column id, name, type, unit and meaning, and
 * the schema version. Evolution rules (after Apache Iceberg): adding a nullable column is allowed at the same
 * version; renaming, retyping or removing a column needs a version bump and a line in {@link
 * io.ridgeline.schema.ResultsSchema#CHANGES}. The golden file src/test/resources/golden/schema.txt pins it.
 */
package io.ridgeline.schema;
