package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import io.ridgeline.jobs.report.FrontierDiff;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code ridgeline diff RUN_A RUN_B}: frontier points that appeared, disappeared, or moved by more than a relative
 * tolerance on any of RUN_B's objectives ({@link FrontierDiff}, which the HTML report shares).
 */
@Command(name = "diff", mixinStandardHelpOptions = true,
        description = "List frontier points that appeared, disappeared or moved between two runs.")
public final class DiffCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "RUN_A", description = "The earlier run id.")
    String runA;

    @Parameters(index = "1", paramLabel = "RUN_B", description = "The later run id.")
    String runB;

    @Mixin
    OutputDirectory outDir = new OutputDirectory();

    @Mixin
    ToleranceOption moved = new ToleranceOption();

    @Override
    public Integer call() throws SQLException {
        double tolerance = moved.checked();
        Path out = outDir.path();
        try (Duck duck = new Duck(out)) {
            if (!duck.views.contains("runs") || !duck.views.contains("frontier")) {
                throw new InvalidInputException(InputError.of("--out", "out", "committed runs under " + out,
                        "no runs table"));
            }
            List<String> runs = new ArrayList<>();
            try (ResultSet rs = duck.connection.createStatement().executeQuery(
                    "SELECT run_id FROM runs ORDER BY run_id")) {
                while (rs.next()) {
                    runs.add(rs.getString(1));
                }
            }
            List<InputError> errors = new ArrayList<>();
            for (String[] r : new String[][]{{"RUN_A", runA}, {"RUN_B", runB}}) {
                if (!runs.contains(r[1])) {
                    errors.add(InputError.of(out.resolve("runs").toString(), r[0], "a committed run id: "
                            + Names.expectedOneOf(r[1], runs), "'" + r[1] + "'"));
                }
            }
            if (!errors.isEmpty()) {
                throw new InvalidInputException(errors);
            }
            List<String> objectives = FrontierDiff.objectives(duck.connection, runB);
            try (PreparedStatement st = FrontierDiff.prepare(duck.connection, runA, runB, objectives, tolerance)) {
                System.out.printf(Locale.ROOT, "frontier diff %s -> %s (objectives %s, tolerance %.3g)%n", runA, runB,
                        objectives, tolerance);
                try (ResultSet rs = st.executeQuery()) {
                    int n = Duck.print(rs, System.out, Integer.MAX_VALUE);
                    if (n == 0) {
                        System.out.println("no frontier changes");
                    }
                }
            }
        }
        return 0;
    }
}
