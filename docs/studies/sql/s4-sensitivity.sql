-- Study 4: the base design (780 mm2 dies, 1000 W): +10% of each resource, re-searched plan, in percent of tokens/s.
select model, phase, global_batch as batch, gpu_count as gpus, tp, pp, dp, micro_batch as mb,
  round(tokens_per_s) as tok_s, bottleneck,
  round(100 * sens_flops_search_fraction, 2) as flops, round(100 * sens_hbm_bw_search_fraction, 2) as hbm_bw,
  round(100 * sens_hbm_capacity_search_fraction, 2) as hbm_cap, round(100 * sens_scale_up_bw_search_fraction, 2) as up_bw,
  round(100 * sens_scale_out_bw_search_fraction, 2) as out_bw, round(100 * sens_latency_search_fraction, 2) as latency,
  round(100 * sens_launch_search_fraction, 2) as launch, invest_first, invest_first_per_w
from points
where status = 'ok' and die_area_mm2 = 780 and power_budget_w = 1000
  and ((phase = 'training' and model = 'gpt3-175b' and gpu_count = 1024)
    or (phase = 'inference' and model = 'llama3-70b' and gpu_count = 8))
order by phase desc, global_batch
