package io.ridgeline.schema;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResultsSchemaTest {
    private static final Path GOLDEN = Path.of("src/test/resources/golden/schema.txt");

    /**
     * The schema users' SQL depends on. A change here is a contract change: bump VERSION for renames, retypes or
     * removals, then regenerate with -Dridgeline.updateGolden=true and review the diff.
     */
    @Test
    void matchesTheGoldenFile() throws IOException {
        String actual = ResultsSchema.describe();
        if (Boolean.getBoolean("ridgeline.updateGolden")) {
            Files.writeString(GOLDEN, actual, StandardCharsets.UTF_8);
        }
        assertEquals(Files.readString(GOLDEN, StandardCharsets.UTF_8), actual);
    }

    @Test
    void quantitiesCarryTheirUnitInTheName() {
        Pattern unitSuffix = Pattern.compile(".*_(s|bytes|j|w|usd|fraction|gbit_s|per_s|per_gpu|per_user|count|mm2"
                // dimensionless ratios named by what they are, and the cost section's own units (requests in
                // flight, like tokens, count what they name)
                + "|factor|pue|years|tokens|requests|per_kwh|per_kusd|per_kw)(_lo|_hi)?$|usd_per_.*");
        for (Table t : ResultsSchema.TABLES) {
            for (Column c : t.columns()) {
                if (c.type() == ColumnType.DOUBLE) {
                    assertTrue(unitSuffix.matcher(c.name()).matches(), t.name() + "." + c.name());
                }
            }
        }
    }

    @Test
    void frontierExtendsPointsWithoutRenumbering() {
        for (int i = 0; i < ResultsSchema.POINTS.columns().size(); i++) {
            assertEquals(ResultsSchema.POINTS.columns().get(i), ResultsSchema.FRONTIER.columns().get(i));
        }
    }

    @Test
    void rejectsDuplicateColumnsAndNamesThatAreNotSnakeCase() {
        assertThrows(IllegalArgumentException.class, () -> new Column(1, "StepTime", ColumnType.DOUBLE, "s", "x"));
        Column a = new Column(1, "a_s", ColumnType.DOUBLE, "s", "x");
        assertThrows(IllegalArgumentException.class, () -> new Table("t", "d", java.util.List.of(a, a)));
    }
}
