#!/usr/bin/env bash
# How long each kernel of one GEMM runs by the GPU's own count, and how much of it the SMs are
# busy: Nsight Compute's duration, elapsed and active SM cycles, grid and shared memory per
# launch, for every kernel the run launches but the L2 flush. ncu flushes the caches before each
# profiled launch, as --flush-l2 does before each timed one.
#   OUT=$OUT bench/device/ncu_time.sh PLUGIN M N K [spmma gemm type options ...]
# A first run without ncu fills the vendor plugins' plan cache, so that under ncu their search
# does not run; their preparing kernels (the baseline kit's spmma_expand_a, cuSPARSELt's prune
# check and compression) still do, once, before the three timed launches of the GEMM's own
# kernel. Writes $OUT/time_<plugin>_<m>x<n>x<k>.csv (ncu's raw page) and prints a line per
# launch.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/ncu-out}
mkdir -p "$OUT"
. bench/device/ncu_kernel.sh
[ -n "$NCU" ] || { echo "ncu not found"; exit 2; }
[ $# -ge 4 ] || { echo "usage: bench/device/ncu_time.sh PLUGIN M N K [type options]"; exit 2; }
plugin=$1 m=$2 n=$3 k=$4
shift 4
base="$OUT/time_${plugin}_${m}x${n}x$k"
args=(gemm --plugin "$plugin" --m "$m" --n "$n" --k "$k" "$@" --verify none --no-progress)
"$BUILD/bin/spmma" "${args[@]}" --warmup 1 --iterations 3 > "$base.log" 2>&1 || { echo "$plugin: spmma failed"; tail -3 "$base.log"; exit 1; }
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_active.avg,sm__cycles_active.max,launch__grid_size,launch__shared_mem_per_block_dynamic,dram__bytes_read.sum,gpc__cycles_elapsed.avg.per_second
timeout 240 "$NCU" --target-processes all --clock-control "${CLOCKS:-none}" --metrics "$metrics" --csv --page raw \
    --print-units base --print-kernel-base function -k 'regex:^(?!spmma_l2_flush)' \
    "$BUILD/bin/spmma" "${args[@]}" --warmup 0 --iterations 3 > "$base.csv" 2>> "$base.log"
rc=$?
python3 - "$base.csv" "$plugin ${m}x${n}x$k" <<'PY'
import csv, sys
# ncu's raw page: a header row, a units row, then a row per launch (numbers with thousands commas).
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
if len(rows) < 2:
    sys.exit(print(sys.argv[2], ": no kernels profiled"))
col = {h: i for i, h in enumerate(rows[0])}
for r in rows[1:]:
    if not r[col["Kernel Name"]]:
        continue
    g = lambda key: float(r[col[key]].replace(",", ""))
    print(f"{sys.argv[2]}: {r[col['Kernel Name']][:60]:60s} {g('gpu__time_duration.sum') / 1e3:8.2f} us "
          f"elapsed {g('sm__cycles_elapsed.max'):8.0f} active avg {g('sm__cycles_active.avg'):8.0f} max {g('sm__cycles_active.max'):8.0f} "
          f"grid {g('launch__grid_size'):5.0f} smem {g('launch__shared_mem_per_block_dynamic') / 1024:6.1f} KB "
          f"dram {g('dram__bytes_read.sum') / 1e6:7.2f} MB clock {g('gpc__cycles_elapsed.avg.per_second') / 1e6:5.0f} MHz")
PY
exit $rc
