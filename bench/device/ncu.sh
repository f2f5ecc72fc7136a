#!/usr/bin/env bash
# Nsight Compute on spmma kernels of any plugin (the GPU machine has ncu; run from the repository
# root with the build copied there): what limits a kernel (shared memory / L1TEX, L2, DRAM, pipes).
#   OUT=$OUT bench/device/ncu.sh [kernel ...]   (default: the two sm90a tiles the heuristic picks)
# A kernel is named <plugin>_<a><b>_<acc>_...; the problem is f16, bf16, e4m3 or s8, SIZE^3 or
# SHAPE=MxNxK. A peer's family (cusparselt_f16f16_f32acc, ...) profiles the launch its plan
# (searched, then cached) runs.
# PLUGIN=sm80 names the plugin where the prefix is not its name (the sm89_ kernels of sm80);
# CLOCKS=none profiles at the clock the GPU picks (ncu locks it to base by default); DIST=int
# takes small-integer operands (spmma gemm --dist; default uniform).
# Writes $OUT/ncu_<kernel>[_MxNxK].txt (Speed of Light, compute and memory workload, warp state,
# scheduler, launch, and the L2's traffic across its partitions' fabric).
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/ncu-out}
SIZE=${SIZE:-8192}
IFS=x read -r M N K <<< "${SHAPE:-${SIZE}x${SIZE}x$SIZE}"
mkdir -p "$OUT"
. bench/device/ncu_kernel.sh
[ -n "$NCU" ] || { echo "ncu not found"; exit 2; }
# Metrics beyond the sections, where this ncu knows them: L2 sectors in all and those that crossed
# the fabric between the L2's two partitions, the L2's clock, the tensor pipe's wgmma cycles.
EXTRA=$("$NCU" --query-metrics 2> /dev/null | awk '{print $1}' | grep -xE \
    'lts__t_sectors|lts__t_sectors_srcunit_ltcfabric|lts__cycles_elapsed|sm__pipe_tensor_op_gmma_cycles_active' |
    sed -E 's/^(lts__t_sectors.*)$/\1.sum/; s/^lts__cycles_elapsed$/lts__cycles_elapsed.avg.per_second/;
        s/^(sm__pipe.*)$/\1.avg.pct_of_peak_sustained_active/' | paste -sd,)
[ $# -gt 0 ] || set -- sm90a_f16f16_f32_256x192x64_c2x1_s5 sm90a_f16f16_f32_128x256x64_c2x1_s5
for k in "$@"; do
    plugin=${PLUGIN:-${k%%_*}}
    types=$(kernel_types "$k") || { echo "$k: give an f16, bf16, e4m3 or s8 kernel with f32/s32 (or f16) accumulation"; continue; }
    problem=($types --m "$M" --n "$N" --k "$K" --dist "${DIST:-uniform}")
    fn=$(gpu_function "$plugin" "$k" "${problem[@]}")
    [ -n "$fn" ] || { echo "$k: no GPU launch found"; continue; }
    out="$OUT/ncu_${k//\*/}${SHAPE:+_$SHAPE}${DIST:+_$DIST}.txt"
    timeout 150 "$NCU" --target-processes all --clock-control "${CLOCKS:-base}" --kernel-name-base function -k "$fn" \
        -c 1 --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
        --section WarpStateStats --section SchedulerStats --section LaunchStats ${EXTRA:+--metrics "$EXTRA"} \
        "$BUILD/bin/spmma" gemm --plugin "$plugin" --kernel "$k" "${problem[@]}" --warmup 0 --iterations 1 \
        --verify none --no-progress > "$out" 2>&1
    echo "$k ($fn) at ${M}x${N}x$K: exit $?"
    grep -E "SM Frequency|Duration|L1/TEX Cache Throughput|L2 Cache Throughput|DRAM Throughput|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|highest-utilized|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Grid Size|Cluster Size|lts__|sm__pipe" "$out"
done
