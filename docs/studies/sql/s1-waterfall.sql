-- Study 1 waterfall: the fastest plan of each step's configuration, one factor changed per step (A100 -> B200 NVL72).
-- Step 2 holds plans to the 80 GiB of the previous chip (hbm_bytes <= 80 GiB), step 3 lifts that limit.
with best as (
  select chip, scale_out, scale_up_domain, precision,
         max(tokens_per_s) as tps,
         max(tokens_per_s) filter (where hbm_bytes <= 80 * 1024 * 1024 * 1024.0) as tps_80g
  from points where status = 'ok' group by all),
steps(step, factor, chip, so, dom, prec, cap80) as (values
  (0, 'A100 (rebuilt): 7nm 400W, 5xHBM2e, NVLink3; bf16, HDR, 8-GPU domain', 's1-a100-%', 'hdr', 8, 'bf16', false),
  (1, '+ peak FLOP/s: Blackwell 2x800mm2 5nm 1000W', 's1-bwc-%', 'hdr', 8, 'bf16', false),
  (2, '+ HBM bandwidth: 8xHBM3e (plans held to 80 GiB)', 's1-bwm-%', 'hdr', 8, 'bf16', true),
  (3, '+ HBM capacity: 192 GiB (better plans)', 's1-bwm-%', 'hdr', 8, 'bf16', false),
  (4, '+ scale-up bandwidth: 18xNVLink5 (= B200)', 's1-bwl-%', 'hdr', 8, 'bf16', false),
  (5, '+ FP8', 's1-bwl-%', 'hdr', 8, 'fp8', false),
  (6, '+ FP4', 's1-bwl-%', 'hdr', 8, 'fp4', false),
  (7, '+ scale-out HDR 200G -> XDR 800G', 's1-bwl-%', 'xdr', 8, 'fp4', false),
  (8, '+ NVLink domain 8 -> 72 (NVL72)', 's1-bwl-%', 'xdr', 72, 'fp4', false)),
w as (
  select s.step, s.factor, case when s.cap80 then b.tps_80g else b.tps end as tps
  from steps s join best b on b.chip like s.chip and b.scale_out = s.so and b.scale_up_domain = s.dom
   and b.precision = s.prec)
select step, factor, round(tps / 1e3, 1) as ktokens_per_s,
       round(tps / lag(tps) over (order by step), 2) as step_x,
       round(tps / first_value(tps) over (order by step), 2) as cumulative_x
from w order by step
