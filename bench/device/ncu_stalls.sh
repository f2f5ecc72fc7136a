#!/usr/bin/env bash
# Where a kernel's warps wait, instruction by instruction: Nsight Compute's warp-state sampling
# over one launch, exported per SASS instruction (the GPU machine has ncu; run from the
# repository root with the build copied there).
#   OUT=$OUT SIZE=4096 bench/device/ncu_stalls.sh kernel [kernel ...]
# Kernel names and problem types as in bench/device/ncu.sh (SIZE^3, or M x N x K where given;
# uniform operands, the GPU's own clock unless CLOCKS=base). OP=scaled-mm runs `--op OP` (the
# serving op, an e4m3 kernel's problem with its epilogue) instead of the kernel's plain types.
# Writes, per kernel (<shape> is SIZE, or MxNxK; _OP follows it where given):
#   $OUT/stalls_<kernel>_<shape>.csv  every SASS instruction with its samples (ncu's source page)
#   $OUT/stalls_<kernel>_<shape>.txt  the warp-state section (stall reasons summed over the kernel)
# bench/device/stall_table.py turns the CSV into the instructions that hold the most samples.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/ncu-out}
SIZE=${SIZE:-4096}
M=${M:-$SIZE} N=${N:-$SIZE} K=${K:-$SIZE}
SHAPE=$SIZE
[ "$M.$N.$K" = "$SIZE.$SIZE.$SIZE" ] || SHAPE=${M}x${N}x$K
OP=${OP:-}
mkdir -p "$OUT"
. bench/device/ncu_kernel.sh
[ -n "$NCU" ] || { echo "ncu not found"; exit 2; }
[ $# -gt 0 ] || { echo "usage: bench/device/ncu_stalls.sh kernel [kernel ...]"; exit 2; }
status=0
for k in "$@"; do
    plugin=${PLUGIN:-${k%%_*}}
    types=$(kernel_types "$k") || { echo "$k: give an f16, bf16, e4m3 or s8 kernel"; status=2; continue; }
    base="$OUT/stalls_${k}_$SHAPE"
    [ -z "$OP" ] || { types="--op $OP"; base="${base}_$OP"; }
    timeout 240 "$NCU" --target-processes all --clock-control "${CLOCKS:-none}" -k "regex:^$k\$" -c 1 \
        --section WarpStateStats --section SourceCounters --import-source no -f -o "$base" \
        "$BUILD/bin/spmma" gemm --plugin "$plugin" --kernel "$k" $types --m "$M" --n "$N" --k "$K" \
        --dist uniform --warmup 0 --iterations 1 --verify none --no-progress > "$base.log" 2>&1
    rc=$?
    echo "$k at $SHAPE${OP:+ ($OP)}: ncu exit $rc"
    if [ $rc -ne 0 ] || [ ! -f "$base.ncu-rep" ]; then tail -5 "$base.log"; status=1; continue; fi
    "$NCU" -i "$base.ncu-rep" --page details --section WarpStateStats > "$base.txt" 2>&1
    "$NCU" -i "$base.ncu-rep" --page source --csv --print-source sass > "$base.csv" 2> "$base.err" || {
        echo "$k: the source page did not export"; cat "$base.err"; status=1; }
    rm -f "$base.ncu-rep"
done
exit $status
