-- Study 4: energy per token by component on the base design, and average power against TDP.
select model, phase, global_batch as batch, round(energy_per_token_j, 4) as total_j,
  round(100 * energy_compute_per_token_j / energy_per_token_j, 1) as compute_pct,
  round(100 * energy_dram_per_token_j / energy_per_token_j, 1) as dram_pct,
  round(100 * energy_scale_up_per_token_j / energy_per_token_j, 1) as up_pct,
  round(100 * energy_scale_out_per_token_j / energy_per_token_j, 1) as out_pct,
  round(100 * energy_static_per_token_j / energy_per_token_j, 1) as static_pct,
  round(100 * power_of_tdp_fraction, 1) as power_of_tdp_pct
from points
where status = 'ok' and die_area_mm2 = 780 and power_budget_w = 1000
  and ((phase = 'training' and model = 'gpt3-175b' and gpu_count = 1024)
    or (phase = 'inference' and model = 'llama3-70b' and gpu_count = 8))
order by phase desc, global_batch
