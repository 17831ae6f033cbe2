#!/usr/bin/env bash
# Reruns the three seed-paper studies and redraws every PNG of docs/studies/img from the runs (5.7 min on 2 cores at
# load 10-17, 129 CPU-seconds, most of it JVM/Spark start-up). Results go to results/studies/ (git-ignored). Tables in the write-ups are
# the output of `scripts/ridgeline sql --out results/studies/study-N "$(q NAME)"` for each docs/studies/sql/NAME.sql.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
R=scripts/ridgeline
OUT=results/studies
IMG=docs/studies/img
q() { grep -v '^--' "docs/studies/sql/$1.sql"; }   # picocli would read a leading "--" comment as an option
plot() { "$R" plot series --width 1000 --height 560 "$@" 2>&1 | grep -v WARNING; }
sql() { echo "== $2"; "$R" sql --out "$1" "$(q "$2")" 2>&1 | grep -v WARNING; }

rm -rf "$OUT"   # each study gets its own directory, holding exactly one run
mkdir -p "$IMG" "$OUT/study-3"

# Study 1: GPT-3 175B, A100 -> H100 -> B200
"$R" sweep sweeps/study-1-gpt3-generations.yaml --out "$OUT/study-1" 2>&1 | grep -E "committed|status"
for n in s1-waterfall s1-generations s1-peaks s1-plans; do sql "$OUT/study-1" "$n"; done
plot --out "$OUT/study-1" --kind bar --value-labels --png "$IMG/study1-waterfall.png" \
  --query "select regexp_replace(factor, ' \(.*|:.*', '') as factor_short, cumulative_x from ($(q s1-waterfall)) order by step" \
  --x factor_short --y cumulative_x --labels "cumulative speed-up vs A100" --x-label "factor added (left to right)" \
  --y-label "tokens/s relative to A100" --title "Study 1: GPT-3 175B on 1024 GPUs, A100 -> B200 NVL72, one factor at a time" \
  --subtitle "best plan per configuration (search over TP, PP, VPP, micro-batch, recompute); sweeps/study-1-gpt3-generations.yaml"
plot --out "$OUT/study-1" --kind stacked --png "$IMG/study1-breakdown.png" \
  --query "select label, compute_pct, memory_pct, network_pct, bubble_pct, other_pct from ($(q s1-generations))" \
  --x label --y compute_pct,memory_pct,network_pct,bubble_pct,other_pct \
  --labels "compute,memory-bound,network (TP+PP+DP exposed),pipeline bubble,other" \
  --x-label "generation (reference network, precision)" --y-label "share of step time [%]" \
  --title "Study 1: where the step time goes, per generation" --subtitle "best plan per configuration, GPT-3 175B, 1024 GPUs"

# Study 2: 12 nm -> 1 nm
"$R" sweep sweeps/study-2-technology-dse.yaml --out "$OUT/study-2" 2>&1 | grep -E "committed|status"
for n in s2-by-node s2-upgrades s2-networks; do sql "$OUT/study-2" "$n"; done
NODE="regexp_extract(chip, '-(\d+nm)-', 1)"
NM="cast(regexp_extract(chip, '-(\d+)nm-', 1) as int)"
DRAM="regexp_extract(chip, 'w-(hbm\w+)x', 1)"
plot --out "$OUT/study-2" --kind line --log-y --png "$IMG/study2-tokens-vs-node.png" \
  --query "select $NODE as node, case when scale_out = 'xdr' and scale_up_domain = 8 then $DRAM || ', XDR, 8-GPU domain' else 'hbm3e, ' || upper(scale_out) || ', ' || scale_up_domain || '-GPU domain' end as config, tokens_per_s from points where status = 'ok' and ((scale_out = 'xdr' and scale_up_domain = 8) or ($DRAM = 'hbm3e' and scale_out in ('hdr', 'eth1600') and scale_up_domain in (8, 72))) order by $NM desc, config" \
  --x node --y tokens_per_s --series config --x-label "logic node (2 x 800 mm2, 1000 W, 8 DRAM stacks)" \
  --y-label "training tokens/s (1024 GPUs, log)" --title "Study 2: GPT-3 175B throughput vs logic node, DRAM and network" \
  --subtitle "best plan per point, bf16; sweeps/study-2-technology-dse.yaml"
plot --out "$OUT/study-2" --kind stacked --png "$IMG/study2-breakdown.png" \
  --query "select node, compute_pct, memory_pct, network_pct, bubble_pct, other_pct from ($(q s2-by-node)) where dram = 'hbm3e'" \
  --x node --y compute_pct,memory_pct,network_pct,bubble_pct,other_pct \
  --labels "compute,memory-bound,network (TP+PP+DP exposed),pipeline bubble,other" \
  --x-label "logic node (HBM3e x8, XDR, 8-GPU domain)" --y-label "share of step time [%]" \
  --title "Study 2: step-time breakdown per node" --subtitle "best plan per node; compute's share falls from 93% to 57%"
plot --out "$OUT/study-2" --kind bar --value-labels --png "$IMG/study2-bottleneck.png" \
  --query "select node, memory_x, scale_out_x, nvl72_x, next_node_x from ($(q s2-upgrades))" \
  --x node --y memory_x,scale_out_x,nvl72_x,next_node_x \
  --labels "memory: best HBM vs HBM2e,scale-out: XDR vs HDR,scale-up: NVL72 vs 8-GPU,compute: this node vs previous" \
  --x-label "logic node" --y-label "speed-up from the upgrade (x)" \
  --title "Study 2: what each upgrade buys at each node (the bottleneck moves)" \
  --subtitle "ratios of best-plan tokens/s; compute's lever shrinks, memory's and network's grow"

# Study 3: inference vs DRAM (driver until sweeps take the inference phase)
java -cp "jobs/target/ridgeline-jobs-0.1.0-SNAPSHOT.jar:jobs/target/lib/*" \
  io.ridgeline.jobs.studies.InferenceDramStudy "$OUT/study-3/study-3-inference-dram.csv"
sql "$OUT/study-1" s3-latency   # any committed run makes `sql` start; the query reads the CSV
CSV="read_csv_auto('$OUT/study-3/study-3-inference-dram.csv')"
SERIES="case design when 's3-h' then 'Hopper-class' else 'Blackwell-class' end || ', TP' || tp || ', batch ' || batch"
for m in tpot_ms:"time per output token [ms]" ttft_ms:"time to first token [ms]" e2e_latency_s:"end-to-end latency [s]"; do
  col=${m%%:*}; label=${m#*:}
  plot --out "$OUT/study-3" --kind line --log-y --png "$IMG/study3-$col.png" \
    --query "select dram, $SERIES as s, $col from $CSV where status = 'ok' order by memory_bw_tbyte_s, s" \
    --x dram --y "$col" --series s --x-label "DRAM generation (fixed stacks, area and power)" --y-label "$label (log)" \
    --title "Study 3: Llama-3 70B $label vs DRAM" --subtitle "2048 prompt + 256 generated tokens; TP1 is missing where 70B does not fit"
done
plot --out "$OUT/study-3" --kind stacked --png "$IMG/study3-breakdown.png" \
  --query "select dram || ', batch ' || batch as x, compute_s, memory_bound_s, communication_s, overhead_s from $CSV where design = 's3-b' and tp = 8 order by batch, memory_bw_tbyte_s" \
  --x x --y compute_s,memory_bound_s,communication_s,overhead_s --labels "compute,memory-bound,TP all-reduce,fixed overheads (launch; host; request)" \
  --x-label "DRAM generation, batch (Blackwell-class, TP8)" --y-label "end-to-end latency [s]" \
  --title "Study 3: what the end-to-end latency is made of" --subtitle "Llama-3 70B, 2048 + 256 tokens"
ls -la "$IMG"

# Study 4: where to invest on a 3 nm B200-class chip (output.sensitivity)
"$R" sweep sweeps/study-4-invest.yaml --out "$OUT/study-4" 2>&1 | grep -E "committed|status"
for n in s4-sensitivity s4-per-dollar s4-area-power s4-energy; do sql "$OUT/study-4" "$n"; done
"$R" plot sensitivity --out "$OUT/study-4" --table points --svg "$IMG/study4-sensitivity.svg" --width 1000 --height 560
"$R" plot sensitivity --out "$OUT/study-4" --table points --point 1 --svg "$IMG/study4-gpt3-training.svg" \
  --width 1000 --height 560
