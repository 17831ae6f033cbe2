package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InputError;
import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.engine.spec.Names;
import picocli.CommandLine.Mixin;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * A command over one committed run of a results directory ({@link ResultsOptions}: export, report and the plots of a
 * run), read with DuckDB, no Spark: its options are checked first, all errors together; then the directory is opened,
 * the tables the command reads (and runs) are required, and the run is picked before {@link #run} does the work.
 */
abstract class RunCommand implements Callable<Integer> {
    /** The tables that hold a run's rows. */
    static final List<String> TABLES = List.of("frontier", "points");

    @Mixin
    ResultsOptions results = new ResultsOptions();

    @Override
    public final Integer call() throws SQLException, IOException {
        List<InputError> errors = new ArrayList<>();
        check(errors);
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        try (Duck duck = new Duck(results.out())) {
            requireViews(duck, results.out(), tables());
            run(duck, results.runId(duck.connection));
        }
        return 0;
    }

    /** Adds what is wrong with the command's own options to {@code errors}; nothing has been read yet. */
    abstract void check(List<InputError> errors);

    /** The tables the command reads: each must exist under --out. */
    abstract List<String> tables();

    /** The command's work on the opened results, for the run the options picked. */
    abstract void run(Duck duck, String runId) throws SQLException, IOException;

    /** Adds an error for each given name that is not one of {@code known} (closest name suggested). */
    static void checkNames(List<String> given, List<String> known, String flag, List<InputError> errors) {
        for (int i = 0; i < given.size(); i++) {
            if (!known.contains(given.get(i))) {
                errors.add(InputError.of(flag, flag.substring(2) + "[" + i + "]", Names.expectedOneOf(given.get(i),
                        known), "'" + given.get(i) + "'"));
            }
        }
    }

    private static void requireViews(Duck duck, Path out, List<String> tables) {
        List<InputError> errors = new ArrayList<>();
        for (String t : new LinkedHashSet<>(tables)) {
            if (!duck.views.contains(t)) {
                errors.add(InputError.of(out.resolve(t).toString(), "--table", "Parquet files of a committed run "
                        + "(the sweep's output.points may be none)", "no " + t + " table"));
            }
        }
        if (!duck.views.contains("runs")) {
            errors.add(InputError.of(out.resolve("runs").toString(), "--out", "a runs table (committed runs)",
                    "no runs table"));
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
    }
}
