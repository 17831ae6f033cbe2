-- Study 1: the engine's peak per precision, recovered from MFU (MFU = model FLOPs / (peak x time); GPT-3 175B
-- model FLOPs per token 72*l*h^2*(1 + s/(6h) + V/(12*l*h)), Korthikanti eq. 7), and the chips' memory capacity.
select regexp_replace(chip, '-(ampere|blackwell)-.*', '') as chip, precision,
  round(max(tokens_per_s_per_gpu * 72 * 96 * 12288.0 * 12288 * (1 + 2048 / (6 * 12288.0)
        + 50257 / (12 * 96 * 12288.0)) / mfu_fraction) / 1e12) as peak_tflops,
  round(max(hbm_capacity_bytes) / 2^30) as hbm_gib
from points where status = 'ok' and scale_out = 'hdr' and scale_up_domain = 8
group by all order by chip, precision
