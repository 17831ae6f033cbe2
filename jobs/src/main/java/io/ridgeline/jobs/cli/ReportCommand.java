package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.report.ColumnSelector;
import io.ridgeline.jobs.report.HtmlReport;
import io.ridgeline.jobs.report.ReportBuilder;
import io.ridgeline.jobs.report.ReportPage;
import io.ridgeline.jobs.report.ResultRows;
import io.ridgeline.jobs.report.RunQuery;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code ridgeline report [RUN]}: one self-contained HTML page about a run (DuckDB over the results, no Spark), the
 * run chosen like {@code export} and {@code plot} ({@link ResultsOptions}: --out, --run or RUN, --where).
 */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write one self-contained HTML page about a run: manifest, sortable frontier table, frontier "
                + "scatter, step-time breakdown, roofline with the frontier's GEMMs, bottlenecks, memory headroom, "
                + "and the changes since the previous run of the same sweep.")
public final class ReportCommand extends RunCommand {
    @Parameters(index = "0", arity = "0..1", paramLabel = "RUN", description = "Run id (same as --run; default: "
            + "the latest committed run).")
    String positionalRun;

    @Option(names = "--html", description = "Output file (default: reports/<run>.html).")
    Path html;

    @Mixin
    ToleranceOption moved = new ToleranceOption();

    private double tolerance;

    /** RUN and --run must agree (RUN then stands for --run); the tolerance must be a number >= 0. */
    @Override
    void check(List<InputError> errors) {
        if (positionalRun != null && results.run != null && !positionalRun.equals(results.run)) {
            throw new InvalidInputException(InputError.of("RUN", "run", "one run: RUN or --run, or both the same",
                    "'" + positionalRun + "' and --run '" + results.run + "'"));
        }
        if (positionalRun != null) {
            results.run = positionalRun;
        }
        tolerance = moved.checked();
    }

    @Override
    List<String> tables() {
        return List.of("frontier");
    }

    @Override
    void run(Duck duck, String runId) throws SQLException, IOException {
        ReportPage page = new ReportBuilder(duck.connection, query(duck, runId), tolerance).build();
        String text = HtmlReport.render(page);
        Path f = html != null ? html : Path.of("reports", runId + ".html");
        Path parent = f.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(f, text, StandardCharsets.UTF_8);
        long tables = page.sections().stream().flatMap(s -> s.parts().stream())
                .filter(p -> p instanceof ReportPage.Table).count();
        System.out.printf(Locale.ROOT, "wrote %s (%,d bytes: %d sections, %d charts, %d tables)%n", f,
                Files.size(f), page.sections().size(), page.charts().size(), tables);
        for (ReportPage.Part p : page.sections().get(page.sections().size() - 1).parts()) {
            if (p instanceof ReportPage.Text t) {
                System.out.println("  " + t.text());
            }
        }
    }

    /** The run's rows through the options export and plot share. */
    private RunQuery query(Duck duck, String runId) {
        Connection c = duck.connection;
        return new RunQuery() {
            @Override
            public String runId() {
                return runId;
            }

            @Override
            public Set<String> views() {
                return Set.copyOf(duck.views);
            }

            @Override
            public Set<String> columns(String view) throws SQLException {
                return ColumnSelector.available(c, view);
            }

            @Override
            public ResultRows rows(String view, List<String> columns, String extraWhere, String orderBy, int limit)
                    throws SQLException {
                return results.query(c, view, columns, runId, extraWhere, orderBy, limit);
            }

            @Override
            public ResultRows counts(String view, List<String> groupBy, String extraWhere) throws SQLException {
                return results.counts(c, view, groupBy, runId, extraWhere);
            }
        };
    }
}
