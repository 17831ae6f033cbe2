-- Study 4: the same rows per 1000 USD and per kW of what the +10% costs one GPU (re-searched speed-up, percent).
select model, phase, global_batch as batch,
  round(100 * sens_flops_fraction_per_kusd, 3) as flops_kusd, round(100 * sens_hbm_bw_fraction_per_kusd, 3) as hbm_bw_kusd,
  round(100 * sens_hbm_capacity_fraction_per_kusd, 3) as hbm_cap_kusd, round(100 * sens_scale_up_bw_fraction_per_kusd, 3) as up_kusd,
  round(100 * sens_scale_out_bw_fraction_per_kusd, 3) as out_kusd,
  round(100 * sens_flops_fraction_per_kw, 2) as flops_kw, round(100 * sens_hbm_bw_fraction_per_kw, 2) as hbm_bw_kw,
  round(100 * sens_scale_up_bw_fraction_per_kw, 2) as up_kw, round(100 * sens_scale_out_bw_fraction_per_kw, 2) as out_kw
from points
where status = 'ok' and die_area_mm2 = 780 and power_budget_w = 1000
  and ((phase = 'training' and model = 'gpt3-175b' and gpu_count = 1024)
    or (phase = 'inference' and model = 'llama3-70b' and gpu_count = 8))
order by phase desc, global_batch
