-- Study 2: what each upgrade buys at each node (speed-up of the best plan), i.e. where the bottleneck sits.
--   memory:    best DRAM of the four vs HBM2e        (XDR, 8-GPU domain)
--   scale-out: XDR 800G vs HDR 200G                  (HBM3e, 8-GPU domain)
--   NVL72:     72-GPU vs 8-GPU NVLink domain         (HBM3e, HDR)
--   next node: this node's chip vs the previous node (HBM3e, XDR, 8-GPU domain)
with p as (
  select regexp_extract(chip, '-(\d+nm)-', 1) as node, cast(regexp_extract(chip, '-(\d+)nm-', 1) as int) as nm,
         regexp_extract(chip, 'w-(hbm\w+)x', 1) as dram, scale_out as so, scale_up_domain as dom, tokens_per_s as t
  from points where status = 'ok'),
n as (
  select node, nm,
    max(t) filter (where so = 'xdr' and dom = 8) / max(t) filter (where so = 'xdr' and dom = 8 and dram = 'hbm2e')
      as memory_x,
    max(t) filter (where dram = 'hbm3e' and so = 'xdr' and dom = 8)
      / max(t) filter (where dram = 'hbm3e' and so = 'hdr' and dom = 8) as scale_out_x,
    max(t) filter (where dram = 'hbm3e' and so = 'hdr' and dom = 72)
      / max(t) filter (where dram = 'hbm3e' and so = 'hdr' and dom = 8) as nvl72_x,
    max(t) filter (where dram = 'hbm3e' and so = 'xdr' and dom = 8) as t_ref
  from p group by node, nm)
select node, round(memory_x, 2) as memory_x, round(scale_out_x, 2) as scale_out_x, round(nvl72_x, 2) as nvl72_x,
  round(t_ref / lag(t_ref) over (order by nm desc), 2) as next_node_x, round(t_ref / 1e3) as ktok_s_hbm3e_xdr
from n order by nm desc
