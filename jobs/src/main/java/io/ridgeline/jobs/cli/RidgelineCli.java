package io.ridgeline.jobs.cli;

import io.ridgeline.engine.spec.InvalidInputException;
import io.ridgeline.jobs.sweep.RunLockedException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code ridgeline} command. Subcommands are listed in {@link #SUBCOMMANDS}; a class that is not (yet) on the
 * classpath is skipped, so commands owned by other modules or branches join by adding one name here.
 *
 * <p>Exit codes: 0 success, 1 failure (a bug, an environment problem, or a run id held by a live run: one line
 * naming the holder), 2 invalid input (the message says what to fix).
 */
@Command(name = "ridgeline", mixinStandardHelpOptions = true, versionProvider = RidgelineCli.Version.class,
        description = "Design-space exploration of distributed LLM training and inference on Spark.")
public final class RidgelineCli implements Runnable {
    static final int FAILURE = 1;
    static final int INVALID_INPUT = 2;

    /** Subcommand classes, in help order. */
    static final List<String> SUBCOMMANDS = List.of(
            "io.ridgeline.jobs.cli.SweepCommand",
            "io.ridgeline.jobs.cli.SqlCommand",
            "io.ridgeline.jobs.cli.DiffCommand",
            "io.ridgeline.jobs.cli.SchemaCommand",
            "io.ridgeline.jobs.cli.EvalCommand",
            "io.ridgeline.jobs.cli.ValidateCommand",
            "io.ridgeline.jobs.cli.CalibrateCommand",
            "io.ridgeline.jobs.cli.ExportCommand",
            "io.ridgeline.jobs.cli.PlotCommand",
            "io.ridgeline.jobs.cli.ReportCommand");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new RidgelineCli());
        for (String name : SUBCOMMANDS) {
            Object command;
            try {
                command = Class.forName(name).getDeclaredConstructor().newInstance();
            } catch (ClassNotFoundException e) {
                continue;
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot create subcommand " + name, e);
            }
            cl.addSubcommand(new CommandLine(command)); // built on its own, so its model transformer runs
        }
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof InvalidInputException invalid) {
                commandLine.getErr().println(invalid.getMessage());
                int n = invalid.errors().size();
                commandLine.getErr().println(n + (n == 1 ? " error" : " errors") + "; nothing was run.");
                return INVALID_INPUT;
            }
            if (ex instanceof RunLockedException locked) {
                commandLine.getErr().println(locked.getMessage());
                return FAILURE;
            }
            throw ex;
        });
        return cl;
    }

    public static void main(String[] args) {
        int code = commandLine().execute(args);
        System.exit(code);
    }

    /** Version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            List<String> lines = new ArrayList<>();
            lines.add("ridgeline " + io.ridgeline.jobs.sweep.Versions.codeVersion());
            lines.add("results schema version " + io.ridgeline.schema.ResultsSchema.VERSION);
            return lines.toArray(new String[0]);
        }
    }
}
