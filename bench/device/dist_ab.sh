#!/usr/bin/env bash
# The same kernels on two operand distributions (spmma gemm --dist: uniform random vs small
# integers, the data CUTLASS's examples fill, e.g. example 15), in one run from the
# repository root with the build copied there; SM clock, power and throttle reasons every 200 ms.
# Question it answers: how much of a figure is the data (on the H200 the clock the GPU holds
# depends on the operands: bench/NOTES.md, "The SM clock over one kernel, by operand data" and
# "The cuSPARSELt plugin on the same two distributions"), i.e. whether two tools' figures on
# different data compare.
#   PLUGIN=sm80 KERNEL='sm80_*_256x128x64_s4_om' DTYPES=f16 SHAPES="8192x8192x8192 ..." \
#   DISTS="uniform int" ITERATIONS=20 OUT=... bench/device/dist_ab.sh
# Logs and records under $OUT; a table last: TFLOP/s and the median SM clock and power of the
# samples above 300 W in each run's window ("-" where the timed launches were too short for the
# 200 ms sampler: raise ITERATIONS to see them).
set -u
OUT=${OUT:-$PWD/dist-ab-out}
PLUGIN=${PLUGIN:-sm80}
KERNEL=${KERNEL:-}
DTYPES=${DTYPES:-f16}
DISTS=${DISTS:-uniform int}
SHAPES=${SHAPES:-4096x4096x4096 8192x8192x8192 16384x16384x16384 11008x4096x4096 28672x4096x8192 8192x2048x28672}
mkdir -p "$OUT"
: > "$OUT/runs.txt"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,nounits -lms 200 \
    > "$OUT/clocks.csv" 2>&1 &
CLOCKS=$!
FAILS=0
for s in $SHAPES; do
    IFS=x read -r m n k <<< "$s"
    for dt in $DTYPES; do
        for d in $DISTS; do
            name="${s}_${dt}_${d}"
            t0=$(date +%s.%N)
            timeout 150 build/bin/spmma gemm --plugin "$PLUGIN" ${KERNEL:+--kernel "$KERNEL"} --dtype "$dt" --dist "$d" \
                --m "$m" --n "$n" --k "$k" --warmup 5 --iterations "${ITERATIONS:-20}" --verify sampled --no-progress \
                --json "$OUT/$name.jsonl" > "$OUT/$name.log" 2>&1 || { FAILS=$((FAILS + 1)); echo "FAIL $name"; }
            echo "$name $t0 $(date +%s.%N)" >> "$OUT/runs.txt"
        done
    done
done
kill $CLOCKS 2>/dev/null
echo "failures: $FAILS"
python3 - "$OUT" <<'PY'
import csv, datetime, glob, json, os, statistics, sys
out = sys.argv[1]
samples = []
for r in csv.reader(open(os.path.join(out, "clocks.csv"))):
    try:
        t = datetime.datetime.strptime(r[0].strip(), "%Y/%m/%d %H:%M:%S.%f").timestamp()
        samples.append((t, float(r[1]), float(r[2]), r[3].strip()))
    except (ValueError, IndexError):
        pass
print(f"{'run':<40} {'plugin/kernel':<44} {'TFLOP/s':>8} {'verified':>9} {'MHz':>6} {'W':>5}  (clock/power: samples > 300 W)")
for line in open(os.path.join(out, "runs.txt")):
    name, t0, t1 = line.split()
    recs = [json.loads(l) for l in open(os.path.join(out, name + ".jsonl")) if l.strip()] if os.path.exists(os.path.join(out, name + ".jsonl")) else []
    # The timed launches come last in a run: clock and power of the loaded samples in its window.
    win = [s for s in samples if float(t0) <= s[0] <= float(t1) and s[2] > 300]
    mhz = f"{statistics.median(s[1] for s in win):.0f}" if win else "-"
    w = f"{statistics.median(s[2] for s in win):.0f}" if win else "-"
    for r in recs:
        if r.get("status") == "skipped":
            print(f"{name:<40} skipped: {str(r.get('reason', ''))[:90]}")
            continue
        tf = (r.get("timing") or {}).get("tflops") or float("nan")
        who = (r.get("plugin") or {}).get("name", "?") + "/" + str(r.get("kernel", "?"))
        print(f"{name:<40} {who:<44} {tf:8.0f} {r.get('status', '?'):>9} {mhz:>6} {w:>5}")
PY
