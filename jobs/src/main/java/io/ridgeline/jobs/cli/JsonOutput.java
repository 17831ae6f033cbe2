package io.ridgeline.jobs.cli;

import picocli.CommandLine.Option;

/**
 * {@code --json}: print the command's result as one JSON document on stdout instead of text (eval, validate,
 * calibrate); each command's description names the document's fields. Progress and "wrote FILE" lines stay on stderr,
 * so stdout pipes into jq.
 */
final class JsonOutput {
    @Option(names = "--json", description = "Print one JSON document on stdout instead of text (fields: see above).")
    boolean on;
}
