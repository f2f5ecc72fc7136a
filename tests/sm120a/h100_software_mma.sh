#!/usr/bin/env bash
# The sm120a kernels' CHECK BUILD on an H100 (any sm_80 / sm_90 GPU), in one run from the
# repository root:
#   tests/sm120a/h100_software_mma.sh            (logs under $OUT, default ./sm120a-swmma-out)
# It configures and builds build-sm120a-swmma (Release, -DSPMMA_SM120A_SOFTWARE_MMA_PLUGIN=ON):
# the plugin sm120a-swmma is the sm120a kernels (device/sm120a_spgemm.cuh) compiled for sm_80/sm_90 with
# the mma.sp done in software (device/mma_software.cuh, checked against the mma.sp model in
# tests/sm120a). Then every kernel of that plugin (one form per data path, both tiles) runs on
# odd and tile-multiple sizes, alpha/beta with C, each D type, verified in full against the CPU
# reference. What this proves on hardware: the cp.async pipeline, the swizzled B and ldmatrix,
# the fragment and scale-word loads, the selectors, the epilogue (ABI 1.2's fused scales, bias
# and activation included) and the tails of the sm120a kernels. What it cannot: the sm_120a tensor-core instruction itself.
# Success: exit 0 and the last line "sm120a-swmma: all <N> runs verified".
set -u
OUT=${OUT:-$PWD/sm120a-swmma-out}
mkdir -p "$OUT"
B=${SM120A_SWMMA_BUILD:-build-sm120a-swmma}
JOBS=$(nproc 2>/dev/null || echo 8)
summary() { echo "$*" | tee -a "$OUT/summary.txt"; }

summary "sm120a-swmma check run $(date -u +%FT%TZ)"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | tee -a "$OUT/summary.txt"
if ! cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSPMMA_SM120A_SOFTWARE_MMA_PLUGIN=ON > "$OUT/cmake.log" 2>&1; then
    tail -20 "$OUT/cmake.log"; summary "sm120a-swmma: cmake failed"; exit 1
fi
T0=$SECONDS
if ! cmake --build "$B" --target spmma spmma_plugin_sm120a_swmma -j"$JOBS" > "$OUT/build.log" 2>&1; then
    grep -E "error" -A3 "$OUT/build.log" | head -40; summary "sm120a-swmma: build failed"; exit 1
fi
summary "built in $((SECONDS - T0)) s"
SPMMA=$B/bin/spmma
"$SPMMA" plugins --verbose > "$OUT/plugins.txt" 2>&1
grep -A2 "sm120a-swmma" "$OUT/plugins.txt" | head -3 | tee -a "$OUT/summary.txt"

RUNS=0
FAILS=0
# run <kernel glob> <spmma gemm problem args...>: every matching kernel, verified in full.
run() {
    local kernel=$1; shift
    RUNS=$((RUNS + 1))
    echo "+ spmma gemm --kernel '$kernel' $*" >> "$OUT/runs.log"
    "$SPMMA" gemm --plugin sm120a-swmma --kernel "$kernel" --no-progress --warmup 0 --iterations 1 --verify full \
        --json "$OUT/runs.jsonl" "$@" >> "$OUT/runs.log" 2>&1
    local rc=$?
    if [ $rc -ne 0 ]; then FAILS=$((FAILS + 1)); summary "FAIL (exit $rc): --kernel '$kernel' $*"; fi
}
ODD="--m 77,1000 --n 135,999"     # tails in m and n (both tiles)
EVEN="--m 256 --n 256"            # whole tiles

T0=$SECONDS
# kind::f8f6f4, f32 accumulation: e4m3 x e2m1 (e2m1 expanded to containers), each D type, alpha/beta.
K1=sm120a_f8f6f4_e4m3e2m1_f32_*
run "$K1" --a-type e4m3 --b-type e2m1 --pattern 2:4 --acc f32 --out f32 $ODD --k 520       # k off the stage
run "$K1" --a-type e4m3 --b-type e2m1 --pattern 2:4 --acc f32 --out f16 $EVEN --k 1024 --alpha 0.5 --beta 2
run "$K1" --a-type e4m3 --b-type e2m1 --pattern 2:4 --acc f32 --out bf16 $ODD --k 256 --alpha -1.5 --beta 0.25
run "$K1" --a-type e4m3 --b-type e2m1 --pattern 2:4 --acc f32 --out f32 --m 1 --n 1 --k 4   # one element
# kind::f8f6f4, f16 accumulation: e2m3 x e3m2 (6-bit containers).
K2=sm120a_f8f6f4_e2m3e3m2_f16_*
run "$K2" --a-type e2m3 --b-type e3m2 --pattern 2:4 --acc f16 --out f16 $ODD --k 260
run "$K2" --a-type e2m3 --b-type e3m2 --pattern 2:4 --acc f16 --out f16 $EVEN --k 512 --alpha 2 --beta -1
# kind::mxf8f6f4 scale_vec::1X: e2m1 x e5m2, ue8m0 per 64 k (scale bytes 0 and 1 of a word).
K3=sm120a_mxf8f6f4_e2m1e5m2_ue8m0x1_*
run "$K3" --a-type e2m1 --b-type e5m2 --pattern 2:4 --scale-type ue8m0 --scale-block 64 $ODD --k 576
run "$K3" --a-type e2m1 --b-type e5m2 --pattern 2:4 --scale-type ue8m0 --scale-block 64 $EVEN --k 1024 --out bf16 --beta 1
# kind::mxf4 and mxf4nvf4 2X: packed e2m1, pairwise 4:8, ue8m0 per 64 k.
for K4 in 'sm120a_mxf4_e2m1_ue8m0x2_*' 'sm120a_mxf4nvf4_e2m1_ue8m0x2_*'; do
    run "$K4" --dtype e2m1 --pattern 4:8 --scale-type ue8m0 --scale-block 64 $ODD --k 640
    run "$K4" --dtype e2m1 --pattern 4:8 --scale-type ue8m0 --scale-block 64 $EVEN --k 2048 --out f16 --alpha 0.25 --beta 1
done
# kind::mxf4nvf4 4X: ue4m3 per 32 k (two scale words a stage).
K5=sm120a_mxf4nvf4_e2m1_ue4m3x4_*
run "$K5" --dtype e2m1 --pattern 4:8 --scale-type ue4m3 --scale-block 32 $ODD --k 544
run "$K5" --dtype e2m1 --pattern 4:8 --scale-type ue4m3 --scale-block 32 $EVEN --k 2048 --out bf16 --alpha 3 --beta -0.5
run "$K5" --dtype e2m1 --pattern 4:8 --scale-type ue4m3 --scale-block 32 --scale-gen amax --m 512 --n 384 --k 4096
# ABI 1.2's epilogue fused into epilogue_vec4: scales, a bias per row or column in f32 or D's
# type, each activation, with and without C, at odd sizes.
run "$K1" --a-type e4m3 --b-type e2m1 --pattern 2:4 --acc f32 --out bf16 $ODD --k 256 --row-scale random --col-scale random --bias row,bf16 --activation gelu-tanh
run "$K1" --a-type e4m3 --b-type e2m1 --pattern 2:4 --acc f32 --out f32 $ODD --k 256 --col-scale random --bias col,f32 --activation silu --beta 0.5
run "$K3" --a-type e2m1 --b-type e5m2 --pattern 2:4 --scale-type ue8m0 --scale-block 64 $ODD --k 576 --row-scale random --bias col --activation relu
run "$K5" --dtype e2m1 --pattern 4:8 --scale-type ue4m3 --scale-block 32 $ODD --k 544 --out f16 --row-scale 0.5 --col-scale random --bias row,f16 --beta 1
summary "ran in $((SECONDS - T0)) s; records in runs.jsonl, outputs in runs.log"

if [ $FAILS -ne 0 ]; then
    summary "sm120a-swmma: $FAILS of $RUNS runs FAILED"
    exit 1
fi
summary "sm120a-swmma: all $RUNS runs verified"
