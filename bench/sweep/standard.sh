#!/usr/bin/env bash
# The sweep measurement behind issue-level figures, in one device call (build carried): the
# standard set on sm90a, cublas and cusparselt (1) with an empty plan cache (the cache-filling
# run: the vendor libraries' searches), (2) again with the cache, plugins in worker processes,
# (3) the same in-process; then configs/quick.toml on every plugin (the README's main job).
# Prints each run's wall time, the time its exit took after the last line of output
# (bench/sweep/timed.py) and its phase table, then the worker / in-process pairing.
# REPEAT=N runs the worker / in-process pair N times, alternating (the isolation cost against
# the run-to-run spread).
#   OUT=... [REPEAT=2] bench/sweep/standard.sh
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/out-sweep}
mkdir -p "$OUT"
export SPMMA_CACHE_DIR="$OUT/plan-cache"
rm -rf "$SPMMA_CACHE_DIR"
FAILS=0
run() {  # run NAME LIMIT ARGS...
    local name=$1 limit=$2; shift 2
    local rc wall tail
    read -r rc wall tail < <(python3 bench/sweep/timed.py "$limit" "$OUT/$name.txt" "$BUILD/bin/spmma" "$@" --no-progress)
    echo "=== $name: exit $rc, wall $wall s, exit after the table $tail s: spmma $*"
    [ "$rc" = 0 ] || FAILS=$((FAILS + 1))
    grep -E "verified,|where the time|^  [a-zA-Z]" "$OUT/$name.txt" | grep -vE "^  [a-z_]+: " | tail -12
}
S="run configs/llm-shapes.toml --plugin sm90a,cublas,cusparselt"
run fill "${T_FILL:-300}" $S --json "$OUT/fill.jsonl"
for rep in $(seq "${REPEAT:-1}"); do
    sfx=$([ "$rep" = 1 ] || echo "-$rep")
    run "worker$sfx" "${T_RUN:-120}" $S --json "$OUT/worker$sfx.jsonl"
    run "in-process$sfx" "${T_RUN:-120}" $S --in-process --json "$OUT/in-process$sfx.jsonl"
    python3 bench/sweep/pair.py "$OUT/worker$sfx.jsonl" "$OUT/in-process$sfx.jsonl" > "$OUT/pair$sfx.txt"
    tail -1 "$OUT/pair$sfx.txt"
done
run quick 120 run configs/quick.toml --json "$OUT/quick.jsonl"
grep -E "FAILED|ERROR" "$OUT/quick.txt" | head -5
# The script's status is its runs': 0 when every spmma run exited 0 (not the last grep's).
echo "standard.sh: $FAILS run(s) exited non-zero"
exit $((FAILS > 0))
