package io.ridgeline.jobs.cli;

import picocli.CommandLine.Command;

/**
 * {@code ridgeline plot latency-throughput}: the serving trade-off users plot (docs/INFERENCE.md, "Serving a 70B
 * model"): each feasible inference point at its output tokens/s per user (1 / inter-token latency under load) against
 * its output tokens/s per GPU, coloured by chip, with each frontier group joined. A sweep over concurrency with the
 * objectives {@code max output_tokens_per_s_per_user, max output_tokens_per_s_per_gpu} makes the joined line the
 * latency-throughput frontier.
 */
@Command(name = "latency-throughput", mixinStandardHelpOptions = true,
        description = "Serving trade-off: output tokens/s per user (x) against output tokens/s per GPU (y) for every "
                + "feasible inference point, coloured by chip (or --color-by, e.g. disaggregation, weight_precision, "
                + "tp), each frontier group joined. tokens_per_s_per_gpu as --y counts every GPU of the cluster.")
public final class PlotLatencyThroughput extends FrontierScatter {
    public PlotLatencyThroughput() {
        super("output_tokens_per_s_per_user", "output_tokens_per_s_per_gpu", "Latency-throughput");
    }
}
