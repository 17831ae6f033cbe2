-- Study 1 generations: catalogue presets, each on its own reference network and the formats it runs natively.
with r as (
  select *, row_number() over (partition by chip, scale_out, scale_up_domain, precision
                               order by tokens_per_s desc) as k
  from points where status = 'ok'),
cfg(ord, label, chip, so, dom, prec) as (values
  (0, 'A100 HDR bf16', 'a100-80g', 'hdr', 8, 'bf16'),
  (1, 'H100 NDR bf16', 'h100-sxm', 'ndr', 8, 'bf16'),
  (2, 'H100 NDR fp8', 'h100-sxm', 'ndr', 8, 'fp8'),
  (3, 'B200 XDR bf16', 'b200', 'xdr', 8, 'bf16'),
  (4, 'B200 XDR fp8', 'b200', 'xdr', 8, 'fp8'),
  (5, 'B200 XDR fp4', 'b200', 'xdr', 8, 'fp4'),
  (6, 'GB200 NVL72 XDR fp4', 'gb200', 'xdr', 72, 'fp4'))
select c.label, tp, pp, dp, vpp, micro_batch as mb, recompute,
  round(tokens_per_s / 1e3) as ktok_s,
  round(tokens_per_s / first_value(tokens_per_s) over (order by c.ord), 2) as vs_a100,
  round(mfu_fraction, 3) as mfu, round(step_time_s, 2) as step_s, round(hbm_bytes / 2^30, 1) as hbm_gib,
  round(100 * compute_s / step_time_s) as compute_pct, round(100 * memory_bound_s / step_time_s) as memory_pct,
  round(100 * (tp_comm_s + pp_comm_s + dp_comm_s) / step_time_s) as network_pct,
  round(100 * bubble_s / step_time_s) as bubble_pct,
  round(100 * greatest(0, step_time_s - compute_s - memory_bound_s - tp_comm_s - pp_comm_s - dp_comm_s - bubble_s)
        / step_time_s) as other_pct, bottleneck
from cfg c join r on r.chip = c.chip and r.scale_out = c.so and r.scale_up_domain = c.dom and r.precision = c.prec
where k = 1 order by c.ord
