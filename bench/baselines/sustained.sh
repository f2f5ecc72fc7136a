#!/usr/bin/env bash
# Sustained throughput at 16384^3 (issue bars: f16/bf16 >= 1300, e4m3/s8 >= 2200 TFLOP/s
# dense-equivalent): every type on sm90a and its peers with at least MIN_TIME seconds of timed
# work per record (default 2), the SM clock, power and throttle reasons sampled during the
# timed loop. Prints one line per record.
#   OUT=... PLUGINS=sm90a,cublas,cusparselt bench/baselines/sustained.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/out-sustained}
PLUGINS=${PLUGINS:-sm90a,cublas,cusparselt}
mkdir -p "$OUT"
timeout "${T_SUSTAINED:-300}" "$BUILD/bin/spmma" gemm --plugin "$PLUGINS" --m 16384 --n 16384 --k 16384 \
    --dtype f16,bf16,e4m3,s8 --min-time "${MIN_TIME:-2}" --iterations 20 --no-progress \
    --json "$OUT/sustained.jsonl" > "$OUT/sustained.txt" 2>&1
echo "exit $? (spmma gemm ... --min-time ${MIN_TIME:-2}; log $OUT/sustained.txt)"
python3 - "$OUT/sustained.jsonl" <<'PY'
import json, sys
print(f"{'plugin':11} {'type':5} {'TFLOP/s':>8} {'iters':>6} {'timed s':>8} {'SM MHz med':>10} {'W med':>6} {'W max':>6}  throttle")
for line in open(sys.argv[1]):
    r = json.loads(line)
    t, c = r.get("timing", {}), r.get("clocks", {})
    if not t.get("tflops"):
        print(f"{r['plugin']['name']:11} {r['problem']['a_type']:5} {r['status']}: {r.get('reason', '')[:80]}")
        continue
    timed = t["median_ms"] * t["iterations"] / 1e3
    print(f"{r['plugin']['name']:11} {r['problem']['a_type']:5} {t['tflops']:8.0f} {t['iterations']:6d} {timed:8.2f} "
          f"{c.get('sm_mhz', {}).get('median', 0):10.0f} {c.get('power_w', {}).get('median', 0):6.0f} "
          f"{c.get('power_w', {}).get('max', 0):6.0f}  {','.join(c.get('throttle', {}).get('reasons', [])) or '-'}")
PY
