#!/usr/bin/env bash
# The epilogue's correctness on one GPU, in ONE device run (~4 min on an H100), from the
# repository root with the build laid out by bench/device/prepare.sh:
#   OUT=$OUT bench/epilogue/verify.sh
# 1. test_epilogue "[gpu]": every epilogue combination at odd shapes on sm90a and sm80, each of
#    their float kernels on four combinations, and what the cusparselt and cublas plugins map
#    to their library's epilogue, verified in full against the reference;
# 2. test_sm90a "[device]" and test_sm80 "[device]": the instructions against their models;
# 3. `spmma check-plugin` on sm90a, sm80, cusparselt and cublas (the epilogue families at odd
#    shapes, handle churn among the rest), then on sm90a again with MALLOC_ARENA_MAX=1 (one malloc
#    arena: whether what churn sees is the allocator's arenas or a leak).
# $OUT gets each step's console (*.txt) and check-plugin's JSON; summary.txt says which passed.
# Exit 0 when every step passed.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:?OUT names the output folder}
mkdir -p "$OUT"
BIN=$BUILD/bin
PLUGINS=$BUILD/lib/spmma/plugins
FAILS=0
step() {  # step NAME SECONDS COMMAND...: its console in $OUT/NAME.txt, its outcome in summary.txt
    local name=$1 limit=$2 t0=$SECONDS rc
    shift 2
    timeout "$limit" "$@" > "$OUT/$name.txt" 2>&1
    rc=$?
    [ "$rc" -eq 0 ] || FAILS=$((FAILS + 1))
    printf '%-28s rc=%-3s %4ss  %s\n' "$name" "$rc" "$((SECONDS - t0))" "$*" | tee -a "$OUT/summary.txt"
}
if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader > "$OUT/summary.txt" 2>&1
fi
step test_epilogue 200 "$BIN/test_epilogue" "[gpu]"
step test_sm90a_device 60 "$BIN/test_sm90a" "[device]"
step test_sm80_device 60 "$BIN/test_sm80" "[device]"
for p in sm90a sm80 cusparselt cublas; do
    step "check_$p" 120 "$BIN/spmma" check-plugin "$PLUGINS/spmma-$p.so" --json "$OUT/check_$p.json"
done
step check_sm90a_arena1 120 env MALLOC_ARENA_MAX=1 "$BIN/spmma" check-plugin "$PLUGINS/spmma-sm90a.so" --json "$OUT/check_sm90a_arena1.json"
# each plugin's churn result in its own words
python3 - "$OUT" > "$OUT/churn.txt" 2>&1 <<'PY'
import glob, json, os, sys
for path in sorted(glob.glob(os.path.join(sys.argv[1], "check_*.json"))):
    for c in json.load(open(path)).get("checks", []):
        if c.get("name") == "churn":
            print(f"{os.path.basename(path)}: {c.get('result')}: {c.get('detail')}")
PY
cat "$OUT/churn.txt" 
echo "failed steps: $FAILS" | tee -a "$OUT/summary.txt"
[ "$FAILS" -eq 0 ]
