package io.ridgeline.schema;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One column of an output table.
 *
 * @param id    stable within its table; never reused for another meaning
 * @param name  snake_case with a unit suffix where the value has a unit
 * @param unit  "s", "bytes", "J", "W", "USD", "fraction", "count", "tokens/s"... or "" for labels
 */
public record Column(int id, String name, ColumnType type, String unit, String doc) {
    private static final Pattern SNAKE = Pattern.compile("[a-z][a-z0-9_]*");

    public Column {
        Objects.requireNonNull(type, "type");
        if (!SNAKE.matcher(name).matches()) {
            throw new IllegalArgumentException("column names are snake_case: " + name);
        }
        if (doc == null || doc.isBlank()) {
            throw new IllegalArgumentException("every column needs a doc: " + name);
        }
    }
}
