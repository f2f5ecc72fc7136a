# Shared by bench/sm90a/device.sh and bench/sm90a/tune.sh (sourced from the repository root):
# the build, the output folder, the time budget and the timed `spmma gemm` step.
# NOTES: never name a variable GROUPS here (bash reserves it).
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/sm90a-device-out}
mkdir -p "$OUT"
SPMMA=$BUILD/bin/spmma
T0=$SECONDS
FAILS=0
note() { echo "== $* (t=$((SECONDS - T0))s)" | tee -a "$OUT/summary.txt"; }
ALL_END=${ALL_END:-570}
left() { echo $((ALL_END - (SECONDS - T0))); }
# run <record file stem> <timeout s> <spmma gemm args...>: the timeout is cut to the time left.
run() {
    local name=$1 limit=$2; shift 2
    local l; l=$(left)
    [ "$l" -lt "$limit" ] && limit=$l
    if [ "$limit" -lt 5 ]; then note "skipped (out of time): spmma gemm $*"; return 1; fi
    echo "+ spmma gemm $*" >> "$OUT/$name.log"
    timeout "$limit" "$SPMMA" gemm --no-progress --json "$OUT/$name.jsonl" "$@" >> "$OUT/$name.log" 2>&1
    local rc=$?
    if [ $rc -ne 0 ]; then
        FAILS=$((FAILS + 1))
        note "FAIL (exit $rc$([ $rc = 124 ] && echo ', timed out')): spmma gemm $*"
    fi
    return $rc
}
# --json rewrites its file: each call gets its own, the table reads them all.
N_CALL=0
runj() { local name=$1; shift; N_CALL=$((N_CALL + 1)); run "${name}_$N_CALL" "$@"; }

