package io.ridgeline.jobs.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.sql.SQLException;
import java.util.concurrent.Callable;

/**
 * {@code ridgeline plot latency-throughput}: the serving trade-off users plot (docs/INFERENCE.md, "Serving a 70B
 * model"): each feasible inference point at its output tokens/s per user (1 / inter-token latency under load) against
 * its output tokens/s per GPU, coloured by chip, with each frontier group joined. A sweep over concurrency with the
 * objectives {@code max output_tokens_per_s_per_user, max output_tokens_per_s_per_gpu} makes the joined line the
 * latency-throughput frontier.
 */
@Command(name = "latency-throughput", mixinStandardHelpOptions = true,
        description = "Serving trade-off: output tokens/s per user (x) against output tokens/s per GPU (y) for every "
                + "feasible inference point, coloured by chip (or --color-by), each frontier group joined.")
public final class PlotLatencyThroughput implements Callable<Integer> {
    @Mixin
    PlotOutput output = new PlotOutput();

    @Mixin
    ResultsOptions results = new ResultsOptions();

    @Option(names = "--x", defaultValue = "output_tokens_per_s_per_user", description = "Column on the x axis "
            + "(default: ${DEFAULT-VALUE}).")
    String x;

    @Option(names = "--y", defaultValue = "output_tokens_per_s_per_gpu", description = "Column on the y axis "
            + "(default: ${DEFAULT-VALUE}; tokens_per_s_per_gpu counts every GPU of the cluster).")
    String y;

    @Option(names = "--color-by", defaultValue = "chip", description = "Label column that picks the colour "
            + "(default: ${DEFAULT-VALUE}; e.g. disaggregation, weight_precision, tp).")
    String colorBy;

    @Option(names = "--scale", defaultValue = "auto", description = "auto (log when an axis spans > 30x), log "
            + "or linear (default: ${DEFAULT-VALUE}).")
    String scale;

    @Override
    public Integer call() throws SQLException, IOException {
        return PlotFrontier.draw(output, results, x, y, colorBy, scale, "Latency-throughput: " + y + " vs " + x,
                "latency-throughput");
    }
}
