package io.ridgeline.schema;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * One output table. Stored as Hive-partitioned Parquet under {@code <out>/<name>/run_id=<id>/}; the partition column
 * {@code run_id} is in the directory name, not in the files.
 */
public record Table(String name, String doc, List<Column> columns) {
    public Table {
        columns = List.copyOf(columns);
        Set<String> names = new HashSet<>();
        Set<Integer> ids = new HashSet<>();
        for (Column c : columns) {
            if (!names.add(c.name()) || !ids.add(c.id())) {
                throw new IllegalArgumentException("duplicate column in " + name + ": " + c.name());
            }
        }
    }

    /** Position of a column by name; fails loudly because a missing column is a bug. */
    public int index(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(column)) {
                return i;
            }
        }
        throw new IllegalStateException("table " + name + " has no column " + column);
    }

    public Column column(String column) {
        return columns.get(index(column));
    }
}
