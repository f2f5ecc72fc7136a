#!/usr/bin/env bash
# The standard set as a regression sweep, on a GPU machine with the build carried
# (bench/device/pack.sh, then bench/device/prepare.sh): where the wall time goes, with the plugins
# in worker processes (the default) and in spmma itself (--in-process), same operands, same
# plugins. Prints each run's wall time and phase table (spmma's summary), then the per-cell
# kernel times of both runs side by side.
#   OUT=... PLUGINS=sm90a,cublas,cusparselt MODES="worker in-process" bench/sweep/device.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/out-sweep}
PLUGINS=${PLUGINS:-sm90a,cublas,cusparselt}
MODES=${MODES:-worker in-process}
WORKLOAD=${WORKLOAD:-configs/llm-shapes.toml}
EXTRA=${EXTRA:-}
mkdir -p "$OUT"
for mode in $MODES; do
    flag=""
    [ "$mode" = in-process ] && flag="--in-process"
    echo "=== $WORKLOAD on $PLUGINS, $mode $EXTRA"
    t0=$(date +%s.%N)
    "$BUILD/bin/spmma" run "$WORKLOAD" --plugin "$PLUGINS" --no-progress $flag $EXTRA --json "$OUT/$mode.jsonl" > "$OUT/$mode.txt" 2>&1
    rc=$?
    t1=$(date +%s.%N)
    echo "exit $rc, wall $(python3 -c "print(f'{$t1-$t0:.2f}')") s (date to date, process start included)"
    grep -E "verified,|where the time|^  [a-zA-Z]" "$OUT/$mode.txt" | grep -v "^  [a-z_]*: " | tail -12
done
if [ -f "$OUT/worker.jsonl" ] && [ -f "$OUT/in-process.jsonl" ]; then
    python3 bench/sweep/pair.py "$OUT/worker.jsonl" "$OUT/in-process.jsonl" | tee "$OUT/pair.txt"
fi
