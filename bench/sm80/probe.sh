#!/usr/bin/env bash
# The mma.sp ceiling on a GPU next to the sm80 plugin's GEMM, in one run from the
# repository root with the build copied there (bench/device/pack.sh; bench/device/prepare.sh first):
#   (a) spmma-bench-sm80-mma: mma.sp bare (registers only) at 4-16 warps per SM, f16 and f32
#       accumulators, dense mma for comparison, and the GEMM loop rebuilt around it step by step
#       (shared loads, barrier, cp.async refill), REPS times;
#   (b) the plugin's f16 256x128 kernel at 8192^3 and 8192x2048x28672 (sampled check): its
#       TFLOP/s; its flop/clk/SM needs the clock over the kernel, which nvidia-smi's samples do
#       not give (bench/device/ncu.sh with CLOCKS=none measures it);
# SM clock, power and throttle reasons every 200 ms in $OUT/clocks.csv; logs under $OUT.
set -u
OUT=${OUT:-$PWD/sm80-probe-out}
REPS=${REPS:-2}
KERNEL=${KERNEL:-sm80_f16f16_f32_256x128x64_s4_om}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee "$OUT/gpu.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,nounits -lms 200 \
    > "$OUT/clocks.csv" 2>&1 &
CLOCKS=$!
for r in $(seq "$REPS"); do
    echo "== probe, repetition $r" | tee -a "$OUT/probe.txt"
    build/bin/spmma-bench-sm80-mma 2>&1 | tee -a "$OUT/probe.txt"
done
for s in 8192x8192x8192 8192x2048x28672; do
    IFS=x read -r m n k <<< "$s"
    echo "== $KERNEL $s" | tee -a "$OUT/gemm.txt"
    timeout 120 build/bin/spmma gemm --plugin sm80 --kernel "$KERNEL" --dtype f16 --m "$m" --n "$n" --k "$k" \
        --warmup 5 --iterations 20 --verify sampled --no-progress --json "$OUT/gemm_$s.jsonl" 2>&1 | tee -a "$OUT/gemm.txt"
done
kill $CLOCKS 2>/dev/null
python3 - "$OUT/clocks.csv" <<'PY'
import csv, statistics, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and r[0][:1].isdigit()]
load = [r for r in rows if float(r[2]) > 150]
if load:
    clk = sorted(float(r[1]) for r in load); pw = [float(r[2]) for r in load]
    print(f"under load (> 150 W): {len(load)} samples, SM clock median {statistics.median(clk):.0f} MHz, "
          f"power median {statistics.median(pw):.0f} W, max {max(pw):.0f} W, "
          f"throttle reasons {sorted(set(r[3].strip() for r in load))}")
PY
