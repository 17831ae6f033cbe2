package io.ridgeline.jobs.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The columns {@code export} writes when {@code --columns} is not given: plan, hardware and headline metrics of the
 * phases the run has. Training rows leave serving columns null and serving rows leave step, MFU and plan-detail
 * columns null, so a single list would export empty columns either way.
 */
public final class ExportColumns {
    private enum Phase { BOTH, TRAINING, INFERENCE }

    private record Col(String name, Phase phase) {
    }

    private static final List<Col> DEFAULTS = List.of(
            both("frontier_group"), both("point_index"), both("plan_index"), both("status"), both("model"),
            both("phase"), training("seq_len"), both("global_batch"), inference("input_tokens"),
            inference("output_tokens"), inference("serving_mode"), inference("concurrency"),
            inference("disaggregation"), both("chip"), both("gpu_count"), both("scale_out"), both("topology"),
            both("tp"), both("pp"), both("dp"), training("cp"), training("ep"), training("micro_batch"),
            training("recompute"), training("precision"), inference("weight_precision"),
            inference("kv_cache_precision"), both("bottleneck"), training("step_time_s"), inference("ttft_s"),
            inference("tpot_s"), inference("e2e_latency_s"), both("tokens_per_s"), both("tokens_per_s_per_gpu"),
            inference("output_tokens_per_s_per_gpu"), inference("serving_output_tokens_per_s_per_gpu"),
            inference("output_tokens_per_s_per_user"), inference("in_flight_requests"), inference("prefill_gpus"),
            inference("decode_gpus"), inference("max_batch"), training("mfu_fraction"), both("hbm_bytes"), inference("kv_cache_bytes"),
            training("energy_per_step_j"), both("energy_per_token_j"), both("cluster_tdp_w"), both("cost_usd"),
            both("usd_per_gpu_hour"), both("usd_per_million_tokens"), both("run_cost_usd"),
            both("fabric_capex_usd"));

    private ExportColumns() {
    }

    private static Col both(String name) {
        return new Col(name, Phase.BOTH);
    }

    private static Col training(String name) {
        return new Col(name, Phase.TRAINING);
    }

    private static Col inference(String name) {
        return new Col(name, Phase.INFERENCE);
    }

    /**
     * The default columns for rows of these phases ({@code training}, {@code inference}), among those the table has
     * and leaving out those that are null in every row ({@code nonNull}).
     */
    public static List<String> defaults(Set<String> phases, Set<String> available, Set<String> nonNull) {
        List<String> out = new ArrayList<>();
        for (Col c : DEFAULTS) {
            boolean wanted = c.phase() == Phase.BOTH || (c.phase() == Phase.TRAINING && phases.contains("training"))
                    || (c.phase() == Phase.INFERENCE && phases.contains("inference"));
            if (wanted && available.contains(c.name()) && nonNull.contains(c.name())) {
                out.add(c.name());
            }
        }
        return out;
    }

    /** Every column a default list may hold, for the query that finds which are null throughout. */
    public static List<String> candidates(Set<String> available) {
        return DEFAULTS.stream().map(Col::name).filter(available::contains).toList();
    }
}
