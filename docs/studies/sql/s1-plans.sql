-- Study 1: the fastest plan of the derived-chip chain at HDR / 8-GPU domain, with its step-time components [s].
with r as (
  select *, row_number() over (partition by chip, scale_out, scale_up_domain, precision
                               order by tokens_per_s desc) as k
  from points where status = 'ok' and chip like 's1-%' and scale_out = 'hdr' and scale_up_domain = 8)
select regexp_replace(chip, '-(ampere|blackwell)-.*', '') as chip, precision as prec, tp, pp, dp, vpp,
  round(tokens_per_s / 1e3) as ktok_s, round(mfu_fraction, 3) as mfu, round(hbm_bytes / 2^30, 1) as hbm_gib,
  round(compute_s, 2) as comp, round(memory_bound_s, 2) as mem, round(tp_comm_s, 2) as tp_c,
  round(pp_comm_s, 2) as pp_c, round(dp_comm_s, 2) as dp_c, round(bubble_s, 2) as bub, round(step_time_s, 2) as step
from r where k = 1 order by chip, prec
