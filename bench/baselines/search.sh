#!/usr/bin/env bash
# The baselines' own plan searches and their plan cache on a GPU machine, from the repository root
# with the build folder copied there (default build/; BUILD=... for another). Builds nothing.
#   1. the standard set (configs/llm-shapes.toml) on cublas and cusparselt with an empty cache
#      folder ($OUT/plan-cache): every plan searched; the run's wall time taken;
#   2. the same again with the folder the first run filled: every plan from the cache; timed;
#   3. per cell (bench/baselines/search_table.py): the pick, both runs' medians, the search's best
#      and runner-up medians, candidates tried (failed), search and prepare times; both walls.
# Records: $OUT/search-fill.jsonl and $OUT/search-hit.jsonl (consoles beside them), the cache
# files in $OUT/plan-cache, the table in $OUT/search-table.txt. T_RUN (default 280 s) limits each
# run; a run cut short keeps the records it streamed. CONFIG=... runs another workload.
set -uo pipefail
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/out-search}
T_RUN=${T_RUN:-280}
CONFIG=${CONFIG:-configs/llm-shapes.toml}
SPMMA="$BUILD/bin/spmma"
CACHE="$OUT/plan-cache"
mkdir -p "$OUT"
rm -rf "$CACHE"
mkdir -p "$CACHE"
export SPMMA_CACHE_DIR="$CACHE"
unset SPMMA_PLAN_CACHE

echo "=== device"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | head -4
"$SPMMA" plugins 2>&1 | grep -E "^(plugin|cublas|cusparselt) "

declare -A WALL
run() {  # run NAME: the standard set on both baselines, records in $OUT/search-NAME.jsonl
  local name=$1
  echo
  echo "=== $name: spmma run $CONFIG --plugin cublas,cusparselt (cache: $CACHE, $(ls "$CACHE" | wc -l) files)"
  local t0 t1
  t0=$(date +%s.%N)
  timeout "$T_RUN" "$SPMMA" run "$CONFIG" --plugin cublas,cusparselt --no-progress \
    --json "$OUT/search-$name.jsonl" > "$OUT/search-$name.txt" 2>&1
  local rc=$?
  t1=$(date +%s.%N)
  WALL[$name]=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
  tail -4 "$OUT/search-$name.txt"
  echo "$name: exit $rc (0: all verified; 124: cut at $T_RUN s), wall ${WALL[$name]} s, $(wc -l < "$OUT/search-$name.jsonl") records"
}

run fill
run hit

echo
echo "=== cache files"
ls -l "$CACHE"
for f in "$CACHE"/*.json; do
  [ -f "$f" ] && python3 -c "import json,sys; print(sys.argv[1], len(json.load(open(sys.argv[1]))['plans']), 'plans')" "$f"
done

echo
echo "=== searches (first run) and cache hits (second run)"
python3 bench/baselines/search_table.py "$OUT/search-fill.jsonl" "$OUT/search-hit.jsonl" --walls "${WALL[fill]}" "${WALL[hit]}" |
  tee "$OUT/search-table.txt"
