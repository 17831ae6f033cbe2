-- Study 2: best plan per derived chip at XDR scale-out and an 8-GPU NVLink domain; step-time shares by component.
with p as (
  select *, regexp_extract(chip, '-(\d+nm)-', 1) as node,
         cast(regexp_extract(chip, '-(\d+)nm-', 1) as int) as nm,
         regexp_extract(chip, 'w-(hbm\w+)x', 1) as dram
  from points where status = 'ok')
select node, dram, tp, pp, dp, vpp, micro_batch as mb,
  round(tokens_per_s_per_gpu * 72 * 96 * 12288.0 * 12288 * (1 + 2048 / (6 * 12288.0)
        + 50257 / (12 * 96 * 12288.0)) / mfu_fraction / 1e12) as bf16_tflops,
  round(tokens_per_s / 1e3) as ktok_s, round(mfu_fraction, 3) as mfu,
  round(100 * compute_s / step_time_s) as compute_pct, round(100 * memory_bound_s / step_time_s) as memory_pct,
  round(100 * (tp_comm_s + pp_comm_s + dp_comm_s) / step_time_s) as network_pct,
  round(100 * bubble_s / step_time_s) as bubble_pct,
  round(100 * greatest(0, step_time_s - compute_s - memory_bound_s - tp_comm_s - pp_comm_s - dp_comm_s - bubble_s)
        / step_time_s) as other_pct, bottleneck
from p where scale_out = 'xdr' and scale_up_domain = 8
order by nm desc, dram
