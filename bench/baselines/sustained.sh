#!/usr/bin/env bash
# Sustained throughput: every record with at least MIN_TIME seconds of timed work, the SM clock,
# power and throttle reasons sampled during the timed loop. Prints one line per record, with the
# rate per GHz of the record's median SM clock (what the kernel does per clock, whatever clock the
# power cap left it).
#   OUT=... PLUGINS=sm90a,cublas,cusparselt bench/baselines/sustained.sh
#       16384^3, every type (issue bars: f16/bf16 >= 1300, e4m3/s8 >= 2200 TFLOP/s
#       dense-equivalent), MIN_TIME 2 s by default;
#   SET=configs/llm-shapes.toml ... bench/baselines/sustained.sh
#       every problem of that workload (`spmma run`), MIN_TIME 1 s by default; the records then
#       go to bench/baselines/compare.py like a sweep's.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/out-sustained}
PLUGINS=${PLUGINS:-sm90a,cublas,cusparselt}
mkdir -p "$OUT"
if [ -n "${SET:-}" ]; then
    MIN_TIME=${MIN_TIME:-1}
    timeout "${T_SUSTAINED:-600}" "$BUILD/bin/spmma" run "$SET" --plugin "$PLUGINS" --min-time "$MIN_TIME" \
        --iterations 20 --no-progress --json "$OUT/sustained.jsonl" > "$OUT/sustained.txt" 2>&1
    echo "exit $? (spmma run $SET ... --min-time $MIN_TIME; log $OUT/sustained.txt)"
else
    MIN_TIME=${MIN_TIME:-2}
    timeout "${T_SUSTAINED:-300}" "$BUILD/bin/spmma" gemm --plugin "$PLUGINS" --m 16384 --n 16384 --k 16384 \
        --dtype f16,bf16,e4m3,s8 --min-time "$MIN_TIME" --iterations 20 --no-progress \
        --json "$OUT/sustained.jsonl" > "$OUT/sustained.txt" 2>&1
    echo "exit $? (spmma gemm ... --min-time $MIN_TIME; log $OUT/sustained.txt)"
fi
python3 bench/baselines/sustained_table.py "$OUT/sustained.jsonl"
