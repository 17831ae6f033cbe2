-- Study 4, technology finite differences: the best plan's tokens/s with +10% die area (858 mm2) or +10% power (1100 W),
-- each over the base design (780 mm2, 1000 W), beside what the chip builder made of it (peak, bandwidth, price).
with b as (
  select model, phase, global_batch, gpu_count, die_area_mm2 as area, power_budget_w as watts, tokens_per_s, cost_usd
  from points where status = 'ok'
    and ((phase = 'training' and model = 'gpt3-175b' and gpu_count = 1024)
      or (phase = 'inference' and model = 'llama3-70b' and gpu_count = 8)))
select x.model, x.phase, x.global_batch as batch, x.area, x.watts,
  round(100 * (x.tokens_per_s / base.tokens_per_s - 1), 2) as speedup_pct,
  round(100 * (x.cost_usd / base.cost_usd - 1), 2) as price_pct
from b x join b base on base.model = x.model and base.phase = x.phase and base.global_batch = x.global_batch
  and base.gpu_count = x.gpu_count and base.area = 780 and base.watts = 1000
where not (x.area = 780 and x.watts = 1000)
order by x.phase desc, x.global_batch, x.area, x.watts
