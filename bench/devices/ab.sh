#!/usr/bin/env bash
# Host-side variants of a run (environment settings) on the standard set, each with
# `--devices 0` and `--devices all`, in one device call on a host with two GPUs:
#
#   bench/device/prepare.sh && OUT=$OUT VARIANTS="base= omp8=OMP_NUM_THREADS=8" bench/devices/ab.sh
#
# VARIANTS: NAME=SETTINGS words, SETTINGS the variables (comma-separated VAR=VALUE, or nothing)
# that variant runs with. A cache-filling run on both GPUs first (the plan cache shared by every
# run after it), then REPEAT (2) rounds; in each round every variant runs `--devices 0` then
# `--devices all`, so the variants alternate on the same machine. Each run's wall time is the
# process's, start to end (bench/sweep/timed.py). $OUT gets table.txt (one line a run: variant,
# devices, round, exit, wall, its end after its last line, records verified), summary.txt (each
# variant's mean walls and the ratio all / 0) and runs.tgz (every run's console). ARGS: more
# arguments for every run. Exit 0 when every run exited 0. On the CPU, with a test plugin of two
# devices: PLUGINS=fault_good_two_devices WORKLOAD=bench/devices/dry_run.toml
# ARGS="--plugin-dir build/tests/faults/plugins/good_two_devices".
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/devices-ab-out}
REPEAT=${REPEAT:-2}
VARIANTS=${VARIANTS:-base=}
PLUGINS=${PLUGINS:-sm90a,cublas,cusparselt}
WORKLOAD=${WORKLOAD:-configs/llm-shapes.toml}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/spmma-devices-ab.XXXXXX")
SPMMA=$(realpath "$BUILD/bin/spmma") || exit 2
export SPMMA_CACHE_DIR=$WORK/plan-cache
read -r -a extra <<< "${ARGS:-}"
S=("$SPMMA" run "$WORKLOAD" --plugin "$PLUGINS" --no-progress "${extra[@]}")
status=0

# run NAME SETTINGS DEVICES ROUND: one run, its line added to table.txt.
run() {
    local name=$1 settings=$2 devices=$3 round=$4 log rc wall after verified
    log=$WORK/$name-d$devices-$round.txt
    local env_args=()
    [ -n "$settings" ] && IFS=, read -r -a env_args <<< "$settings"
    read -r rc wall after < <(env "${env_args[@]}" python3 bench/sweep/timed.py 120 "$log" "${S[@]}" --devices "$devices")
    verified=$(grep -oE "^[0-9]+ verified" "$log" | cut -d' ' -f1)
    [ "$rc" = 0 ] || status=1
    printf '%-12s %-4s %s %4s %7s %6s %4s\n' "$name" "$devices" "$round" "$rc" "$wall" "$after" "${verified:-0}" | tee -a "$OUT/table.txt"
}

printf '%-12s %-4s %s %4s %7s %6s %4s\n' variant dev r exit wall_s end_s ver > "$OUT/table.txt"
run fill "" all 0
for round in $(seq "$REPEAT"); do
    for v in $VARIANTS; do
        run "${v%%=*}" "${v#*=}" 0 "$round"
        run "${v%%=*}" "${v#*=}" all "$round"
    done
done
python3 - "$OUT/table.txt" > "$OUT/summary.txt" <<'EOF'
import sys
from collections import defaultdict
walls = defaultdict(list)
for line in open(sys.argv[1]).read().splitlines()[1:]:
    f = line.split()
    if f[0] != "fill":
        walls[(f[0], f[1])].append(float(f[4]))
for v in dict.fromkeys(k[0] for k in walls):
    d0, al = walls[(v, "0")], walls[(v, "all")]
    m0, ma = sum(d0) / len(d0), sum(al) / len(al)
    print(f"{v:12s} --devices 0 {m0:5.2f} s, all {ma:5.2f} s: all / 0 = {ma / m0:.3f} "
          f"(0: {', '.join(f'{x:.2f}' for x in d0)}; all: {', '.join(f'{x:.2f}' for x in al)})")
EOF
cat "$OUT/summary.txt"
tar -czf "$OUT/runs.tgz" -C "$WORK" . || status=1
exit $status
