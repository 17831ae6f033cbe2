package io.ridgeline.schema;

import java.util.ArrayList;
import java.util.List;

import static io.ridgeline.schema.ColumnType.BOOLEAN;
import static io.ridgeline.schema.ColumnType.DOUBLE;
import static io.ridgeline.schema.ColumnType.INT;
import static io.ridgeline.schema.ColumnType.LONG;
import static io.ridgeline.schema.ColumnType.STRING;
import static io.ridgeline.schema.ColumnType.TIMESTAMP;

/** The versioned schema of Ridgeline's output tables. */
public final class ResultsSchema {
    /** Bump on any rename, retype or removal; add a line to {@link #CHANGES}. */
    public static final int VERSION = 4;
    public static final List<String> CHANGES = List.of("1: first version (points, frontier, runs)",
            "2: optional columns appended to points and frontier (ids 55-81): topology; inference settings and "
                    + "results (input_tokens ... kv_cache_bytes); TCO (usd_per_gpu_hour ... fabric_capex_usd); "
                    + "derived-chip parameters (logic_node ... power_budget_w). phase may be 'inference' (then seq_len "
                    + "is input + output tokens and global_batch the static batch). No column renamed or retyped; "
                    + "cost_usd keeps its meaning. frontier_group moves from id 55 to 82 (it stays the last column).",
            "2, additions only (no bump): runs gains optional columns (ids 28-37) recording the run's resolved cost "
                    + "section: cost_server_overhead_factor ... cost_tokens and cost_fabrics_json (the priced fabrics). "
                    + "Null in runs written before; total_s is measured from the command's start.",
            "3: optional column software (id 82): the software stack of the row's phase (catalog/stacks.yaml id; "
                    + "training defaults to megatron-bridge@25.11, whose fused attention and DP overlap are the "
                    + "flash_attention and overlap_grad of earlier runs; null on inference rows without a serving "
                    + "stack). scale_out_gbps is renamed scale_out_gbit_s (same values, Gbit/s: the unit now reads in "
                    + "the name, as _gbps meant GB/s in chips.csv). frontier_group moves from id 82 to 83 (it stays "
                    + "the last column).",
            "3, additions only (no bump): points and frontier gain optional columns after software: energy per token by "
                    + "component (energy_compute_per_token_j ... energy_static_per_token_j, adding up to "
                    + "energy_per_token_j), power_of_tdp_fraction, and with output.sensitivity the sens_<resource>_* "
                    + "columns (+10% of flops, hbm_bw, hbm_capacity, scale_up_bw, scale_out_bw, latency, launch) and "
                    + "invest_first / invest_first_per_w; null otherwise. Then the serving columns of inference rows: "
                    + "serving_mode, disaggregation, output_tokens_per_s_per_user, in_flight_requests, requests_per_s, "
                    + "kv_transfer_s, prefill_gpus, decode_gpus (null on training rows). frontier_group stays the last "
                    + "column.",
            "4: prediction intervals and the robust frontier (issue 11). points and frontier gain, after "
                    + "decode_gpus, interval_group and the _lo/_hi ends of the main outputs at the run's coverage "
                    + "(step_time_s, tokens_per_s, ttft_s, tpot_s, e2e_latency_s, output_tokens_per_s_per_gpu; null "
                    + "where the output has no interval, memory never has one). frontier gains robust after "
                    + "frontier_group, which is no longer the last column. runs gains calibration, "
                    + "calibration_code_version and interval_coverage_fraction (ids 38-40). No column renamed or "
                    + "retyped.");
    /** The Hive partition column of every table (directory name, not a file column). */
    public static final String RUN_ID = "run_id";

    private static final List<Column> POINT_COLUMNS = pointColumns();

    /** Every evaluated grid point the sweep's output policy keeps (all, feasible or none). */
    public static final Table POINTS = new Table("points",
            "One row per grid point (search keep: best) or per plan on a point's own frontier (keep: frontier).",
            POINT_COLUMNS);

    /** The non-dominated points per frontier group over the sweep's objectives. */
    public static final Table FRONTIER = new Table("frontier",
            "Pareto-optimal rows per frontier group: points columns plus the group label.", frontierColumns());

    /** One row per committed run; a run without a row here is not complete. */
    public static final Table RUNS = new Table("runs",
            "The manifest: one row per committed run, written last. Join on run_id.", List.of(
            new Column(1, "sweep_name", STRING, "", "the sweep file's name field"),
            new Column(2, "sweep_file", STRING, "", "path of the sweep file as given"),
            new Column(3, "spec_sha256", STRING, "", "SHA-256 of the sweep file's bytes"),
            new Column(4, "catalog_sha256", STRING, "", "SHA-256 over the bundled catalogue files"),
            new Column(5, "schema_version", INT, "", "ResultsSchema.VERSION that wrote the run"),
            new Column(6, "code_version", STRING, "", "project version and git commit of the code"),
            new Column(7, "started_at", TIMESTAMP, "UTC", "when the run started"),
            new Column(8, "finished_at", TIMESTAMP, "UTC", "when the run committed"),
            new Column(9, "validate_s", DOUBLE, "s", "time to read, validate and estimate the sweep"),
            new Column(10, "evaluate_s", DOUBLE, "s", "time of the Spark job that evaluates and writes points"),
            new Column(11, "frontier_s", DOUBLE, "s", "time to merge skylines and write the frontier"),
            new Column(12, "total_s", DOUBLE, "s", "wall time from the command's start until the manifest is written (the console's total)"),
            new Column(13, "grid_points", LONG, "count", "size of the grid"),
            new Column(14, "evaluations", LONG, "count", "engine evaluations (plans tried over all points)"),
            new Column(15, "points_rows", LONG, "count", "rows written to points"),
            new Column(16, "frontier_rows", LONG, "count", "rows written to frontier"),
            new Column(17, "count_ok", LONG, "count", "grid points with status ok"),
            new Column(18, "count_memory_capacity", LONG, "count", "grid points with status memory_capacity"),
            new Column(19, "count_plan_shape", LONG, "count", "grid points with status plan_shape"),
            new Column(20, "count_gpu_count", LONG, "count", "grid points with status gpu_count"),
            new Column(21, "count_no_valid_plan", LONG, "count", "grid points with status no_valid_plan"),
            new Column(22, "count_constraint", LONG, "count", "grid points with status constraint"),
            new Column(23, "points_policy", STRING, "", "all, feasible or none"),
            new Column(24, "spark_master", STRING, "", "the Spark master the run used"),
            new Column(25, "partitions", INT, "count", "Spark partitions of the evaluation job"),
            new Column(26, "objectives", STRING, "", "the frontier's objectives, e.g. 'max tokens_per_s,min cost_usd'"),
            new Column(27, "group_by", STRING, "", "the frontier's group columns, comma-separated"),
            // Additions (ResultsSchema.CHANGES): the cost section as resolved, so exports price rows as the run did.
            new Column(28, "cost_server_overhead_factor", DOUBLE, "ratio", "cost.server_overhead_factor: server capex over chip price"),
            new Column(29, "cost_interconnect_fraction", DOUBLE, "fraction", "cost.interconnect_fraction: network share of cluster capex without a priced topology"),
            new Column(30, "cost_amortization_years", DOUBLE, "years", "cost.amortization_years: straight-line depreciation period"),
            new Column(31, "cost_server_power_factor", DOUBLE, "ratio", "cost.server_power_factor: server power over chip TDP"),
            new Column(32, "cost_load_fraction", DOUBLE, "fraction", "cost.load_fraction: average over peak power"),
            new Column(33, "cost_pue", DOUBLE, "ratio", "cost.pue: facility power over IT power"),
            new Column(34, "cost_usd_per_kwh", DOUBLE, "USD/kWh", "cost.usd_per_kwh: electricity price"),
            new Column(35, "cost_availability_fraction", DOUBLE, "fraction", "cost.availability_fraction: useful fraction of wall time"),
            new Column(36, "cost_tokens", DOUBLE, "tokens", "cost.tokens: tokens of one run for run_cost_usd; 0 = no budget"),
            new Column(37, "cost_fabrics_json", STRING, "", "priced fabrics as a JSON array, one object per topology, "
                    + "scale_out, scale_up_domain, gpu_count: switches, optics, cables, nics (counts), switch_usd, "
                    + "optic_usd, cable_usd, nic_usd, switch_w; [] without a topology"),
            // schema 4 (issue 11): the calibration a run applied and the coverage of its intervals
            new Column(38, "calibration", STRING, "", "the sweep's calibration profile as 'PATH sha256:HEX' (path "
                    + "resolved against the sweep file, SHA-256 of its bytes); null = none (bundled catalogues)"),
            new Column(39, "calibration_code_version", STRING, "", "the code_version the profile was fitted with "
                    + "(its own provenance line); null without a profile"),
            new Column(40, "interval_coverage_fraction", DOUBLE, "fraction", "stated coverage of the _lo/_hi "
                    + "interval columns and of the frontier's robust flag (output.interval_coverage)")));

    public static final List<Table> TABLES = List.of(POINTS, FRONTIER, RUNS);

    private ResultsSchema() {
    }

    public static Table table(String name) {
        for (Table t : TABLES) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("no table " + name + "; known: points, frontier, runs");
    }

    private static List<Column> pointColumns() {
        List<Column> c = new ArrayList<>();
        int id = 1;
        c.add(new Column(id++, "point_index", LONG, "", "index of the grid point (mixed-radix over the sweep's axes)"));
        c.add(new Column(id++, "plan_index", INT, "", "plan within the point's search list or parallelism.plans; -1 none"));
        c.add(new Column(id++, "status", STRING, "", "ok, memory_capacity, plan_shape, gpu_count, no_valid_plan or constraint"));
        c.add(new Column(id++, "detail", STRING, "", "why the point is not ok (required vs available, broken bound); empty when ok"));
        c.add(new Column(id++, "model", STRING, "", "model name from the catalogue"));
        c.add(new Column(id++, "phase", STRING, "", "workload phase: training or inference"));
        c.add(new Column(id++, "seq_len", INT, "tokens", "sequence length (inference: input + output tokens)"));
        c.add(new Column(id++, "global_batch", INT, "sequences", "sequences per optimizer step (inference: the static batch)"));
        c.add(new Column(id++, "chip", STRING, "", "accelerator id"));
        c.add(new Column(id++, "gpu_count", INT, "count", "GPUs in the cluster"));
        c.add(new Column(id++, "scale_out", STRING, "", "scale-out network id"));
        c.add(new Column(id++, "scale_out_gbit_s", DOUBLE, "Gbit/s", "per-GPU scale-out bandwidth per direction"));
        c.add(new Column(id++, "scale_up_domain", INT, "count", "GPUs per scale-up domain"));
        c.add(new Column(id++, "tp", INT, "count", "tensor-parallel size"));
        c.add(new Column(id++, "pp", INT, "count", "pipeline stages"));
        c.add(new Column(id++, "dp", INT, "count", "data-parallel replicas"));
        c.add(new Column(id++, "cp", INT, "count", "context-parallel size"));
        c.add(new Column(id++, "ep", INT, "count", "expert-parallel size"));
        c.add(new Column(id++, "sp", BOOLEAN, "", "sequence parallelism"));
        c.add(new Column(id++, "vpp", INT, "count", "virtual pipeline stages per rank"));
        c.add(new Column(id++, "zero", INT, "", "ZeRO stage 0-3"));
        c.add(new Column(id++, "micro_batch", INT, "sequences", "sequences per micro-batch"));
        c.add(new Column(id++, "recompute", STRING, "", "activation recomputation: none, selective or full"));
        c.add(new Column(id++, "precision", STRING, "", "math precision"));
        c.add(new Column(id++, "overlap_grad", BOOLEAN, "", "gradient reduction overlapped with backward"));
        c.add(new Column(id++, "flash_attention", BOOLEAN, "", "fused attention kernels"));
        c.add(new Column(id++, "bottleneck", STRING, "", "largest share of step time, or memory_capacity"));
        c.add(new Column(id++, "step_time_s", DOUBLE, "s", "time per optimizer step"));
        c.add(new Column(id++, "tokens_per_s", DOUBLE, "tokens/s", "training throughput of the whole cluster"));
        c.add(new Column(id++, "tokens_per_s_per_gpu", DOUBLE, "tokens/s", "throughput per GPU"));
        c.add(new Column(id++, "mfu_fraction", DOUBLE, "fraction", "model FLOPs utilisation"));
        c.add(new Column(id++, "hfu_fraction", DOUBLE, "fraction", "hardware FLOPs utilisation (with recompute)"));
        c.add(new Column(id++, "compute_s", DOUBLE, "s", "exposed compute-bound time per step"));
        c.add(new Column(id++, "memory_bound_s", DOUBLE, "s", "exposed memory-bound time per step"));
        c.add(new Column(id++, "tp_comm_s", DOUBLE, "s", "exposed tensor-parallel communication per step"));
        c.add(new Column(id++, "cp_comm_s", DOUBLE, "s", "exposed context-parallel communication per step"));
        c.add(new Column(id++, "ep_comm_s", DOUBLE, "s", "exposed expert-parallel communication per step"));
        c.add(new Column(id++, "pp_comm_s", DOUBLE, "s", "exposed pipeline point-to-point time per step"));
        c.add(new Column(id++, "dp_comm_s", DOUBLE, "s", "exposed data-parallel communication per step"));
        c.add(new Column(id++, "bubble_s", DOUBLE, "s", "pipeline bubble per step"));
        c.add(new Column(id++, "optimizer_s", DOUBLE, "s", "optimizer update per step"));
        c.add(new Column(id++, "overhead_s", DOUBLE, "s", "host launch overhead per step the GPU could not hide"));
        c.add(new Column(id++, "weight_bytes", DOUBLE, "bytes", "weights on the most loaded device"));
        c.add(new Column(id++, "gradient_bytes", DOUBLE, "bytes", "gradients on the most loaded device"));
        c.add(new Column(id++, "optimizer_bytes", DOUBLE, "bytes", "optimizer state on the most loaded device"));
        c.add(new Column(id++, "activation_bytes", DOUBLE, "bytes", "activations on the most loaded device"));
        c.add(new Column(id++, "reserve_bytes", DOUBLE, "bytes", "framework reserve on the most loaded device"));
        c.add(new Column(id++, "hbm_bytes", DOUBLE, "bytes", "total resident bytes on the most loaded device"));
        c.add(new Column(id++, "hbm_capacity_bytes", DOUBLE, "bytes", "device memory capacity"));
        c.add(new Column(id++, "energy_per_step_j", DOUBLE, "J", "cluster energy per optimizer step"));
        c.add(new Column(id++, "energy_per_token_j", DOUBLE, "J", "cluster energy per trained token"));
        c.add(new Column(id++, "cluster_power_w", DOUBLE, "W", "average cluster accelerator power while training"));
        c.add(new Column(id++, "cluster_tdp_w", DOUBLE, "W", "accelerator TDP x gpu_count"));
        c.add(new Column(id++, "cost_usd", DOUBLE, "USD", "accelerator capital cost: catalogue price x gpu_count"));
        // schema 2: optional columns, null where they do not apply
        c.add(new Column(id++, "topology", STRING, "", "scale-out fabric of the network.topology axis; 'none' = flat full bisection"));
        c.add(new Column(id++, "input_tokens", INT, "tokens", "inference: prompt tokens per request"));
        c.add(new Column(id++, "output_tokens", INT, "tokens", "inference: generated tokens per request"));
        c.add(new Column(id++, "concurrency", INT, "requests", "inference: requests in flight for the serving throughput"));
        c.add(new Column(id++, "weight_precision", STRING, "", "inference: storage format of the weights"));
        c.add(new Column(id++, "activation_precision", STRING, "", "inference: format of activations and GEMM inputs"));
        c.add(new Column(id++, "kv_cache_precision", STRING, "", "inference: storage format of the KV cache"));
        c.add(new Column(id++, "cuda_graphs", BOOLEAN, "", "inference: decode steps replayed as CUDA graphs"));
        c.add(new Column(id++, "ttft_s", DOUBLE, "s", "inference: time to first token (request overhead + prefill)"));
        c.add(new Column(id++, "tpot_s", DOUBLE, "s", "inference: mean time per output token over the generation"));
        c.add(new Column(id++, "e2e_latency_s", DOUBLE, "s", "inference: static batch from arrival to last token"));
        c.add(new Column(id++, "output_tokens_per_s_per_gpu", DOUBLE, "tokens/s", "inference: static-batch output tokens/s per GPU of a replica"));
        c.add(new Column(id++, "serving_output_tokens_per_s_per_gpu", DOUBLE, "tokens/s", "inference: continuous batching at the concurrency, per GPU of a replica"));
        c.add(new Column(id++, "max_batch", INT, "requests", "inference: largest batch the KV cache holds at full context"));
        c.add(new Column(id++, "kv_cache_bytes", DOUBLE, "bytes", "inference: KV cache on the most loaded GPU"));
        c.add(new Column(id++, "usd_per_gpu_hour", DOUBLE, "USD/h", "TCO: (capex per hour + energy per hour) / availability, per GPU"));
        c.add(new Column(id++, "usd_per_million_tokens", DOUBLE, "USD", "TCO: cluster cost per million tokens (trained, or generated) at tokens_per_s"));
        c.add(new Column(id++, "run_cost_usd", DOUBLE, "USD", "TCO: cost of cost.tokens tokens at tokens_per_s; null without a budget"));
        c.add(new Column(id++, "wall_energy_per_token_j", DOUBLE, "J", "TCO: wall-plug energy per token (server factor, load, PUE, switches)"));
        c.add(new Column(id++, "cluster_capex_usd", DOUBLE, "USD", "TCO: servers (chip x overhead) + network (share, or the priced topology)"));
        c.add(new Column(id++, "fabric_capex_usd", DOUBLE, "USD", "TCO: switches, optics, cables and NICs of the topology; null without one"));
        c.add(new Column(id++, "logic_node", STRING, "", "derived chip: logic node (null for presets)"));
        c.add(new Column(id++, "dram_type", STRING, "", "device memory type (presets: catalogue memory_type)"));
        c.add(new Column(id++, "dram_stacks", INT, "count", "derived chip: DRAM stacks it has (the requested count, or fewer when the die edge or package limits them)"));
        c.add(new Column(id++, "dies", INT, "count", "derived chip: compute dies"));
        c.add(new Column(id++, "die_area_mm2", DOUBLE, "mm2", "derived chip: area per die"));
        c.add(new Column(id++, "power_budget_w", DOUBLE, "W", "derived chip: board power budget"));
        // schema 3
        c.add(new Column(id++, "software", STRING, "", "software stack of the phase (catalog/stacks.yaml id); null = none"));
        // schema 3 additions (sensitivity lane, issue 13): energy by component; sensitivities (output.sensitivity)
        c.add(new Column(id++, "energy_compute_per_token_j", DOUBLE, "J", "energy per token: tensor/vector math incl. on-chip SRAM/L2 traffic (ChipEnergy folds it into the per-FLOP energy)"));
        c.add(new Column(id++, "energy_dram_per_token_j", DOUBLE, "J", "energy per token: device-memory (HBM) traffic"));
        c.add(new Column(id++, "energy_scale_up_per_token_j", DOUBLE, "J", "energy per token: bytes sent on scale-up links"));
        c.add(new Column(id++, "energy_scale_out_per_token_j", DOUBLE, "J", "energy per token: bytes sent on the scale-out network (NIC, optics)"));
        c.add(new Column(id++, "energy_static_per_token_j", DOUBLE, "J", "energy per token: static power x time; the five components add up to energy_per_token_j"));
        c.add(new Column(id++, "power_of_tdp_fraction", DOUBLE, "fraction", "average accelerator power over TDP"));
        c.add(new Column(id++, "sens_flops_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% peak tensor FLOP/s of the plan's precision, same plan"));
        c.add(new Column(id++, "sens_flops_search_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% flops, plan re-searched"));
        c.add(new Column(id++, "sens_flops_tpot_fraction", DOUBLE, "fraction", "inference: TPOT speed-up from +10% flops, same plan"));
        c.add(new Column(id++, "sens_flops_fraction_per_kusd", DOUBLE, "1/kUSD", "sens_flops_search_fraction per 1000 USD per GPU the +10% costs; null when unpriced"));
        c.add(new Column(id++, "sens_flops_fraction_per_kw", DOUBLE, "1/kW", "sens_flops_search_fraction per kW per GPU the +10% draws; null when it draws none or is unpriced"));
        c.add(new Column(id++, "sens_hbm_bw_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% HBM (device memory) bandwidth, same plan"));
        c.add(new Column(id++, "sens_hbm_bw_search_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% hbm_bw, plan re-searched"));
        c.add(new Column(id++, "sens_hbm_bw_tpot_fraction", DOUBLE, "fraction", "inference: TPOT speed-up from +10% hbm_bw, same plan"));
        c.add(new Column(id++, "sens_hbm_bw_fraction_per_kusd", DOUBLE, "1/kUSD", "sens_hbm_bw_search_fraction per 1000 USD per GPU the +10% costs; null when unpriced"));
        c.add(new Column(id++, "sens_hbm_bw_fraction_per_kw", DOUBLE, "1/kW", "sens_hbm_bw_search_fraction per kW per GPU the +10% draws; null when it draws none or is unpriced"));
        c.add(new Column(id++, "sens_hbm_capacity_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% HBM capacity, same plan"));
        c.add(new Column(id++, "sens_hbm_capacity_search_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% hbm_capacity, plan re-searched"));
        c.add(new Column(id++, "sens_hbm_capacity_tpot_fraction", DOUBLE, "fraction", "inference: TPOT speed-up from +10% hbm_capacity, same plan"));
        c.add(new Column(id++, "sens_hbm_capacity_fraction_per_kusd", DOUBLE, "1/kUSD", "sens_hbm_capacity_search_fraction per 1000 USD per GPU the +10% costs; null when unpriced"));
        c.add(new Column(id++, "sens_hbm_capacity_fraction_per_kw", DOUBLE, "1/kW", "sens_hbm_capacity_search_fraction per kW per GPU the +10% draws; null when it draws none or is unpriced"));
        c.add(new Column(id++, "sens_scale_up_bw_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% scale-up (NVLink) bandwidth per GPU, same plan"));
        c.add(new Column(id++, "sens_scale_up_bw_search_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% scale_up_bw, plan re-searched"));
        c.add(new Column(id++, "sens_scale_up_bw_tpot_fraction", DOUBLE, "fraction", "inference: TPOT speed-up from +10% scale_up_bw, same plan"));
        c.add(new Column(id++, "sens_scale_up_bw_fraction_per_kusd", DOUBLE, "1/kUSD", "sens_scale_up_bw_search_fraction per 1000 USD per GPU the +10% costs; null when unpriced"));
        c.add(new Column(id++, "sens_scale_up_bw_fraction_per_kw", DOUBLE, "1/kW", "sens_scale_up_bw_search_fraction per kW per GPU the +10% draws; null when it draws none or is unpriced"));
        c.add(new Column(id++, "sens_scale_out_bw_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% scale-out bandwidth per GPU, same plan"));
        c.add(new Column(id++, "sens_scale_out_bw_search_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% scale_out_bw, plan re-searched"));
        c.add(new Column(id++, "sens_scale_out_bw_tpot_fraction", DOUBLE, "fraction", "inference: TPOT speed-up from +10% scale_out_bw, same plan"));
        c.add(new Column(id++, "sens_scale_out_bw_fraction_per_kusd", DOUBLE, "1/kUSD", "sens_scale_out_bw_search_fraction per 1000 USD per GPU the +10% costs; null when unpriced"));
        c.add(new Column(id++, "sens_scale_out_bw_fraction_per_kw", DOUBLE, "1/kW", "sens_scale_out_bw_search_fraction per kW per GPU the +10% draws; null when it draws none or is unpriced"));
        c.add(new Column(id++, "sens_latency_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% network latency (scale-up and scale-out collective step), -10% = 1/1.1, same plan"));
        c.add(new Column(id++, "sens_latency_search_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% latency, plan re-searched"));
        c.add(new Column(id++, "sens_latency_tpot_fraction", DOUBLE, "fraction", "inference: TPOT speed-up from +10% latency, same plan"));
        c.add(new Column(id++, "sens_latency_fraction_per_kusd", DOUBLE, "1/kUSD", "sens_latency_search_fraction per 1000 USD per GPU the +10% costs; null when unpriced"));
        c.add(new Column(id++, "sens_latency_fraction_per_kw", DOUBLE, "1/kW", "sens_latency_search_fraction per kW per GPU the +10% draws; null when it draws none or is unpriced"));
        c.add(new Column(id++, "sens_launch_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% kernel launch overhead per kernel, x 1/1.1, same plan"));
        c.add(new Column(id++, "sens_launch_search_fraction", DOUBLE, "fraction", "speed-up (tokens/s) from +10% launch, plan re-searched"));
        c.add(new Column(id++, "sens_launch_tpot_fraction", DOUBLE, "fraction", "inference: TPOT speed-up from +10% launch, same plan"));
        c.add(new Column(id++, "sens_launch_fraction_per_kusd", DOUBLE, "1/kUSD", "sens_launch_search_fraction per 1000 USD per GPU the +10% costs; null when unpriced"));
        c.add(new Column(id++, "sens_launch_fraction_per_kw", DOUBLE, "1/kW", "sens_launch_search_fraction per kW per GPU the +10% draws; null when it draws none or is unpriced"));
        c.add(new Column(id++, "invest_first", STRING, "", "the resource with the largest speed-up per dollar (sens_*_fraction_per_kusd); null when none speeds up"));
        c.add(new Column(id++, "invest_first_per_w", STRING, "", "the resource with the largest speed-up per watt (sens_*_fraction_per_kw)"));
        // schema 3 additions (serving, issue 10): the load and disaggregation of an inference row
        c.add(new Column(id++, "serving_mode", STRING, "", "inference: static, saturated (continuous batching at an unlimited rate) or online (clients or a rate)"));
        c.add(new Column(id++, "disaggregation", STRING, "", "inference: none, or P:D prefill:decode replicas of one deployment unit"));
        c.add(new Column(id++, "output_tokens_per_s_per_user", DOUBLE, "tokens/s", "inference: one request's output speed, 1 / tpot_s (inter-token latency under load)"));
        c.add(new Column(id++, "in_flight_requests", DOUBLE, "requests", "inference: requests a (decode) replica runs at once: the static batch, or where continuous batching settles"));
        c.add(new Column(id++, "requests_per_s", DOUBLE, "requests/s", "inference: requests the cluster completes per second"));
        c.add(new Column(id++, "kv_transfer_s", DOUBLE, "s", "inference, disaggregated: one request's KV-cache transfer from prefill to decode"));
        c.add(new Column(id++, "prefill_gpus", INT, "count", "inference, disaggregated: GPUs of the cluster in prefill replicas"));
        c.add(new Column(id++, "decode_gpus", INT, "count", "inference, disaggregated: GPUs of the cluster in decode replicas"));
        // schema 4 (issue 11): prediction intervals from leave-one-source-out residuals (docs/CALIBRATION.md); the
        // coverage is the run's interval_coverage_fraction (runs), 0.8 by default
        c.add(new Column(id++, "interval_group", STRING, "", "stack family | chip family whose interval the row takes (e.g. megatron-bridge|hopper; 'none' = no stack); rows of one group share their systematic error; null without an interval"));
        interval(c, id, "step_time_s", "s", "training: time per optimizer step");
        interval(c, id + 2, "tokens_per_s", "tokens/s", "tokens/s of the cluster (training: the step-time interval inverted; inference: the output-throughput interval)");
        interval(c, id + 4, "ttft_s", "s", "inference: time to first token");
        interval(c, id + 6, "tpot_s", "s", "inference: time per output token (whole-request latency residuals where TPOT has too few)");
        interval(c, id + 8, "e2e_latency_s", "s", "inference: static batch from arrival to last token");
        interval(c, id + 10, "output_tokens_per_s_per_gpu", "tokens/s", "inference: output tokens/s per GPU of a replica");
        return c;
    }

    /** The _lo and _hi columns of one output, at ids {@code id} and {@code id + 1}. */
    private static void interval(List<Column> c, int id, String output, String unit, String what) {
        c.add(new Column(id, output + "_lo", DOUBLE, unit, "prediction interval, low end, of " + output + " (" + what
                + ") at the run's coverage; null without an interval"));
        c.add(new Column(id + 1, output + "_hi", DOUBLE, unit, "prediction interval, high end, of " + output
                + "; null without an interval"));
    }

    private static List<Column> frontierColumns() {
        List<Column> c = new ArrayList<>(POINT_COLUMNS);
        c.add(new Column(POINT_COLUMNS.size() + 1, "frontier_group", STRING, "",
                "the group this row is Pareto-optimal in, as column=value pairs (e.g. model=gpt3-175b)"));
        c.add(new Column(POINT_COLUMNS.size() + 2, "robust", BOOLEAN, "", "false when a row of another "
                + "interval_group could dominate this one within the intervals (its best ends dominate this row's "
                + "worst ends over the objectives; pareto.RobustDominance): its lead is inside the model's error"));
        return c;
    }

    /** The schema as text, one column per line: what the golden file pins and docs show. */
    public static String describe() {
        StringBuilder sb = new StringBuilder("schema_version " + VERSION + "\n");
        for (Table t : TABLES) {
            sb.append("\ntable ").append(t.name()).append(" (partitioned by ").append(RUN_ID).append(")\n");
            for (Column col : t.columns()) {
                sb.append(String.format("%3d  %-24s %-9s %-10s %s%n", col.id(), col.name(), col.type(), col.unit(),
                        col.doc()));
            }
        }
        return sb.toString();
    }
}
