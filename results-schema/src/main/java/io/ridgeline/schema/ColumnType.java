package io.ridgeline.schema;

/** Column types, mapped one to one onto Parquet/Spark types by the writer. */
public enum ColumnType {
    STRING, INT, LONG, DOUBLE, BOOLEAN, TIMESTAMP
}
