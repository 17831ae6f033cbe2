package io.ridgeline.jobs.cli;

import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the whole {@code ridgeline} CLI in-process and captures its exit code, stdout and stderr. */
record CliRun(int code, String out, String err) {

    static CliRun of(String... args) {
        PrintStream oldOut = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        StringWriter err = new StringWriter();
        try {
            System.setOut(new PrintStream(out, true));
            CommandLine cl = RidgelineCli.commandLine();
            cl.setErr(new PrintWriter(err, true));
            return new CliRun(cl.execute(args), out.toString(), err.toString());
        } finally {
            System.setOut(oldOut);
        }
    }
}
