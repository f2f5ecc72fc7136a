#!/usr/bin/env bash
# Nsight Compute on spmma kernels of any plugin (the GPU machine has ncu; run from the repository
# root with the build copied there): what limits a kernel (shared memory / L1TEX, L2, DRAM, pipes).
#   OUT=$OUT bench/device/ncu.sh [kernel ...]   (default: the two sm90a tiles the heuristic picks)
# A kernel is named <plugin>_<a><b>_<acc>_...; the problem is f16, bf16, e4m3 or s8, SIZE^3.
# PLUGIN=sm80 names the plugin where the prefix is not its name (the sm89_ kernels of sm80);
# CLOCKS=none profiles at the clock the GPU picks (ncu locks it to base by default); DIST=int
# takes small-integer operands (spmma gemm --dist; default uniform).
# Writes $OUT/ncu_<kernel>.txt (Speed of Light, compute and memory workload, warp state, scheduler).
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/ncu-out}
SIZE=${SIZE:-8192}
mkdir -p "$OUT"
. bench/device/ncu_kernel.sh
[ -n "$NCU" ] || { echo "ncu not found"; exit 2; }
[ $# -gt 0 ] || set -- sm90a_f16f16_f32_256x192x64_c2x1_s5 sm90a_f16f16_f32_128x256x64_c2x1_s5
for k in "$@"; do
    plugin=${PLUGIN:-${k%%_*}}
    types=$(kernel_types "$k") || { echo "$k: give an f16, bf16, e4m3 or s8 kernel with f32/s32 (or f16) accumulation"; continue; }
    timeout 150 "$NCU" --target-processes all --clock-control "${CLOCKS:-base}" -k "regex:^$k\$" -c 1 --section SpeedOfLight \
        --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis --section WarpStateStats \
        --section SchedulerStats "$BUILD/bin/spmma" gemm --plugin "$plugin" --kernel "$k" $types --m "$SIZE" \
        --n "$SIZE" --k "$SIZE" --dist "${DIST:-uniform}" --warmup 0 --iterations 1 --verify none --no-progress \
        > "$OUT/ncu_$k${DIST:+_$DIST}.txt" 2>&1
    echo "$k: exit $?"
    grep -E "SM Frequency|Duration|L1/TEX Cache Throughput|L2 Cache Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|highest-utilized|Issue Slots Busy|No Eligible|Warp Cycles Per Issued" "$OUT/ncu_$k${DIST:+_$DIST}.txt"
done
