-- Study 3: latency vs DRAM generation (CSV from io.ridgeline.jobs.studies.InferenceDramStudy).
select design, dram, round(memory_bw_tbyte_s, 1) as bw_tbyte_s, round(memory_gib) as gib, round(bf16_tflops) as bf16_tf,
  tp, batch, status, round(ttft_ms, 1) as ttft_ms, round(tpot_ms, 2) as tpot_ms, round(e2e_latency_s, 2) as e2e_s,
  round(output_tokens_per_s_per_gpu, 1) as tok_s_gpu, max_batch, bottleneck,
  round(100 * memory_bound_s / e2e_latency_s) as mem_pct, round(100 * overhead_s / e2e_latency_s) as ovh_pct,
  round(100 * communication_s / e2e_latency_s) as comm_pct, round(100 * compute_s / e2e_latency_s) as comp_pct
from read_csv_auto('results/studies/study-3/study-3-inference-dram.csv')
order by design desc, tp, batch, memory_bw_tbyte_s
