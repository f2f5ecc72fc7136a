#!/usr/bin/env bash
# The DRAM read ceiling next to the GEMMs that meet it, in one run on a GPU machine from the
# repository root (bench/device/pack.sh, then bench/device/prepare.sh):
#   (a) spmma-bench-dram: whole-GPU reads of 8-512 MiB (loads and bulk copies, with the fit
#       time = t0 + bytes / rate) and what 1 to all SMs take in (loads, bulk copies, tensor copies
#       of the sm90a decode kernels' A box), REPS times;
#   (b) the decode layers (CELLS, m x k: by default those whose compressed A is 64 MB or more and
#       three smaller ones) at N tokens (default one and sixteen), TYPES (f16 and e4m3) on PLUGINS,
#       L2 flushed, sampled verification: their times beside the ceiling of the same bytes.
# SM clock, memory clock and power every 200 ms in $OUT/clocks.csv; logs and records under $OUT.
set -uo pipefail
OUT=${OUT:-$PWD/dram-out}
REPS=${REPS:-2}
PLUGINS=${PLUGINS:-sm90a,sm80,cusparselt,cublas}
CELLS=${CELLS:-"57344x8192 8192x28672 28672x4096 10240x8192 8192x8192 7168x8192 6144x4096 4096x4096"}
TYPES=${TYPES:-f16,e4m3}
N=${N:-1,16}
MIN_TIME=${MIN_TIME:-0.05}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee "$OUT/gpu.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,clocks_throttle_reasons.active --format=csv,nounits -lms 200 \
    > "$OUT/clocks.csv" 2>&1 &
CLOCKS=$!
status=0
for r in $(seq "$REPS"); do
    echo "== spmma-bench-dram, repetition $r" | tee -a "$OUT/dram.txt"
    build/bin/spmma-bench-dram 2>&1 | tee -a "$OUT/dram.txt" || status=1
done
for cell in $CELLS; do
    IFS=x read -r m k <<< "$cell"
    timeout 300 build/bin/spmma gemm --plugin "$PLUGINS" --dtype "$TYPES" --m "$m" --n "$N" --k "$k" \
        --flush-l2 --min-time "$MIN_TIME" --verify sampled --no-progress --json "$OUT/cells_$cell.jsonl" \
        >> "$OUT/cells.txt" 2>&1 || status=1
done
kill $CLOCKS 2>/dev/null
exit $status
