package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.evaluation.FrontierGroups;
import io.ridgeline.engine.evaluation.PointStatus;
import io.ridgeline.engine.evaluation.Evaluator;
import io.ridgeline.engine.sweep.SweepLoader;
import io.ridgeline.engine.sweep.SweepSpec;
import io.ridgeline.schema.Column;
import io.ridgeline.schema.ResultsSchema;
import org.apache.spark.sql.Row;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Golden frontiers: the frontier rows (every column of the frontier table) of three of the repository's sweep files,
 * computed in-process the way a Spark partition computes them (the engine's sweep evaluator, the frontier groups and
 * one skyline per group, then the driver's {@link SweepJob#frontierRows} ordering), compared value for value with
 * the files under {@code src/test/resources/golden/}. Doubles are written with {@link Double#toString}, so a change
 * in the last bit of any number shows.
 *
 * <p>An intentional model or schema change regenerates the files with {@code scripts/regenerate-golden}, and the
 * diff shows what moved (one column per line).
 */
class GoldenFrontierTest {
    static final Path GOLDEN = Path.of("src/test/resources/golden");
    static final boolean WRITE = Boolean.getBoolean("ridgeline.golden.write");

    @ParameterizedTest
    @ValueSource(strings = {"quickstart", "inference", "technology"})
    void frontierMatchesTheGoldenFile(String sweep) throws IOException {
        Path file = Path.of("../sweeps", sweep + ".yaml");
        List<String> actual = render(file.toString(), frontier(SweepLoader.load(file)));
        Path golden = GOLDEN.resolve("frontier-" + sweep + ".txt");
        if (WRITE) {
            Files.createDirectories(GOLDEN);
            Files.write(golden, actual, StandardCharsets.UTF_8);
            return;
        }
        assertTrue(Files.exists(golden), "no golden file " + golden + ": run scripts/regenerate-golden");
        List<String> expected = Files.readAllLines(golden, StandardCharsets.UTF_8);
        for (int i = 0; i < Math.min(expected.size(), actual.size()); i++) {
            assertEquals(expected.get(i), actual.get(i), golden + " line " + (i + 1) + " (" + context(actual, i)
                    + "); an intentional change regenerates it with scripts/regenerate-golden");
        }
        assertEquals(expected.size(), actual.size(), golden + ": number of lines");
    }

    /** The frontier rows of a sweep, as the Spark job would write them (groups by label, rows in skyline order). */
    static List<Row> frontier(SweepSpec spec) {
        Evaluator ev = new Evaluator(spec);
        FrontierGroups groups = new FrontierGroups(spec);
        FrontierFold skylines = new FrontierFold();
        IntervalEnds ends = new IntervalEnds(spec.objectives());
        double[] objective = new double[spec.objectives().size()];
        double[] best = new double[objective.length];
        for (long i = 0; i < ev.grid().size(); i++) {
            ev.evaluate(i, p -> {
                if (p.status() != PointStatus.OK) {
                    return;
                }
                ev.objectives().vector(p.metrics(), objective);
                ends.best(p.metrics(), best);
                skylines.offer(p, groups.key(p), objective, best);
            });
        }
        return SweepJob.frontierRows(spec, skylines);
    }

    /** One line per column, rows introduced by their number and group: small diffs when one column moves. */
    static List<String> render(String source, List<Row> rows) {
        List<Column> columns = ResultsSchema.FRONTIER.columns();
        List<String> out = new ArrayList<>();
        out.add("# frontier of " + source + ": " + rows.size() + " rows x " + columns.size() + " columns "
                + "(GoldenFrontierTest; regenerate with scripts/regenerate-golden)");
        for (int r = 0; r < rows.size(); r++) {
            Row row = rows.get(r);
            out.add("row " + (r + 1));
            for (int c = 0; c < columns.size(); c++) {
                out.add("  " + columns.get(c).name() + "=" + (row.isNullAt(c) ? "null" : String.valueOf(row.get(c))));
            }
        }
        return out;
    }

    private static String context(List<String> lines, int at) {
        for (int i = at; i >= 0; i--) {
            if (lines.get(i).startsWith("row ")) {
                return lines.get(i);
            }
        }
        return "header";
    }
}
