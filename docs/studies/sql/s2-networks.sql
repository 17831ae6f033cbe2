-- Study 2: every network at 12 nm and 1 nm (HBM3e), best plan per point.
select regexp_extract(chip, '-(\d+nm)-', 1) as node, scale_out, scale_up_domain as dom, tp, pp, dp,
  round(tokens_per_s / 1e3) as ktok_s, round(mfu_fraction, 3) as mfu,
  round(100 * (tp_comm_s + pp_comm_s + dp_comm_s) / step_time_s) as network_pct
from points where status = 'ok' and chip like '%-hbm3ex8' and (chip like '%-12nm-%' or chip like '%-1nm-%')
order by cast(regexp_extract(chip, '-(\d+)nm-', 1) as int) desc, tokens_per_s
