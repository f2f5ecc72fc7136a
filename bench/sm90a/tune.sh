#!/usr/bin/env bash
# One tuning round of the sm90a plugin in ONE run (< 10 min), from the repository root
# with the build copied there as for bench/sm90a/device.sh:
#   KERNELS=... CHECK=... SHAPES=... RASTERS=... OUT=$OUT bench/sm90a/tune.sh
#   (a) correctness of the round's new kernels (CHECK: kernel-name suffix glob after the type
#       prefix) for f16, bf16, e4m3 and s8: odd shapes and 4096^3, full verification;
#   (b) the candidates (KERNELS: comma-separated suffix globs) at SHAPES for the four types,
#       next to the cuSPARSELt plugin on the same operands (perf_*.jsonl; table.py reads them);
#   (c) the raster bands of the persistent schedule at 16384^3 f16 (SPMMA_SM90A_RASTER=G: bands
#       of G cluster rows; nG: of G cluster columns) for RASTER_KERNELS (raster_*.jsonl);
#   (d) the table (bench/sm90a/table.py), then the raster sweep.
set -u
cd "$(dirname "$0")/../.."
. bench/sm90a/steps.sh
KERNELS=${KERNELS:-128x256x*_c2x1_*,128x256x*_c2x2_*,256x192x*_c2x1_*,256x192x*_c1x1_*}
CHECK=${CHECK:-*_c2x2_*}
SHAPES=${SHAPES:-16384x16384x16384 28672x4096x8192 4096x4096x4096}
RASTER_KERNELS=${RASTER_KERNELS:-sm90a_f16f16_f32_256x192x64_c2x1_s5,sm90a_f16f16_f32_128x256x64_c2x2_s5}
RASTERS=${RASTERS:-1 2 4 8 16 n2 n4}
TYPES=("f16|--dtype f16 --acc f32 --out f16|sm90a_f16f16_f32"
       "bf16|--dtype bf16 --acc f32 --out bf16|sm90a_bf16bf16_f32"
       "e4m3|--a-type e4m3 --b-type e4m3 --acc f32 --out bf16|sm90a_e4m3e4m3_f32"
       "s8|--a-type s8 --b-type s8 --acc s32 --out s32|sm90a_s8s8_s32")
# "a,b" -> "<prefix>_a,<prefix>_b"
globs() { local prefix=$1 out="" g; IFS=',' read -ra gs <<< "$2"; for g in "${gs[@]}"; do out+="${out:+,}${prefix}_$g"; done; echo "$out"; }

note "sm90a tuning round $(date -u +%FT%TZ): KERNELS=$KERNELS CHECK=$CHECK"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader 2>&1 | tee -a "$OUT/summary.txt"

# ---- (a) ----------------------------------------------------------------------------------------
if [ -n "$CHECK" ]; then
    note "correctness of $CHECK"
    for t in "${TYPES[@]}"; do
        IFS='|' read -r name types prefix <<< "$t"
        run "correct_$name" 60 --plugin sm90a --warmup 1 --iterations 2 $types --kernel "$(globs "$prefix" "$CHECK")" \
            --m 1000,1111 --n 777 --k 1000,2048 --verify full
        run "correct_big_$name" 60 --plugin sm90a --warmup 1 --iterations 2 $types --kernel "$(globs "$prefix" "$CHECK")" \
            --m 4096 --n 4096 --k 4096 --verify full
    done
fi

# ---- (b) ----------------------------------------------------------------------------------------
note "candidates at $SHAPES, with the cuSPARSELt plugin"
for s in $SHAPES; do
    IFS=x read -r m n k <<< "$s"
    for t in "${TYPES[@]}"; do
        IFS='|' read -r name types prefix <<< "$t"
        runj perf 90 --plugin sm90a,cusparselt $types --m "$m" --n "$n" --k "$k" --warmup 5 --iterations 20 \
            --verify sampled --kernel "$(globs "$prefix" "$KERNELS"),cusparselt_*"
    done
done

# ---- (c) ----------------------------------------------------------------------------------------
note "raster bands at 16384^3 f16: $RASTERS"
for r in $RASTERS; do
    SPMMA_SM90A_RASTER=$r run "raster_$r" 60 --plugin sm90a --dtype f16 --acc f32 --out f16 --m 16384 --n 16384 \
        --k 16384 --warmup 5 --iterations 20 --verify sampled --kernel "$RASTER_KERNELS"
done

# ---- (d) ----------------------------------------------------------------------------------------
note "done: $FAILS failed step(s)"
python3 bench/sm90a/table.py "$OUT" | tee "$OUT/table.txt"
python3 - "$OUT" <<'EOF' | tee -a "$OUT/table.txt"
import glob, json, os, sys
print("\nraster bands at 16384^3 f16 (TFLOP/s median / best; default: the heuristic's bands)")
for path in sorted(glob.glob(os.path.join(sys.argv[1], "raster_*.jsonl"))):
    for line in open(path):
        r = json.loads(line)
        t = r.get("timing", {})
        print(f"  {os.path.basename(path)[7:-6]:>4}  {r.get('kernel', '-'):45} {r.get('status'):10} "
              f"{t.get('tflops', 0):7.0f} {t.get('tflops_best', 0):7.0f}")
EOF
