/** The {@code ridgeline} command line (picocli): one class per subcommand, registered in {@link io.ridgeline.jobs.cli.RidgelineCli}. */
package io.ridgeline.jobs.cli;
