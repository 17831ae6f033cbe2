package io.ridgeline.jobs.cli;

import picocli.CommandLine.Command;

/** {@code ridgeline plot frontier}: every feasible point of a run on two columns, with the frontier joined. */
@Command(name = "frontier", mixinStandardHelpOptions = true,
        description = "Scatter of every feasible point on two columns, coloured by chip (or --color-by), with "
                + "each frontier group's Pareto points joined.")
public final class PlotFrontier extends FrontierScatter {
    public PlotFrontier() {
        super("cost_usd", "tokens_per_s", "Frontier");
    }
}
