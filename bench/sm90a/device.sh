#!/usr/bin/env bash
# The sm90a plugin on a lent Hopper GPU, in ONE device call (< 10 min), from the repository root
# with the build folder carried (BUILD=build by default; it must hold bin/spmma, bin/test_sm90a
# and lib/spmma/plugins/spmma-sm90a.so):
#   bench/sm90a/device.sh [all|check|perf]        logs and records under $OUT
#   (a) what the plugin links against, the GPU, the plugins spmma sees;
#   (b) the device test: the real wgmma.mma_async.sp vs the bit-level model, every variant;
#   (c) correctness of every kernel at odd shapes (m, n, k tails; full verification), alpha/beta
#       with C, and the main type of each family at 4096^3 and 8192x2048x28672 (sampled);
#   (d) timings: f16/bf16 at 8192^3 and 16384^3 for every f16/bf16 kernel; the standard shape
#       set (configs/llm-shapes.toml, heuristic kernel choice) for f16/bf16/e4m3/s8; then the
#       peers (dense cuBLAS, cuSPARSELt through PyTorch: shared/bench/peers.py) in the same call;
#   (e) a short table last: correctness per group, then per shape and type the best sm90a
#       kernel, the heuristic's pick and the peers.
# Every spmma call runs under `timeout` so a hung kernel costs its slot, not the whole call.
set -u
MODE=${1:-all}
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/sm90a-device-out}
mkdir -p "$OUT"
SPMMA=$BUILD/bin/spmma
T0=$SECONDS
FAILS=0
note() { echo "== $* (t=$((SECONDS - T0))s)" | tee -a "$OUT/summary.txt"; }
# Time budget of the one call: the checks end by CHECK_END s, everything by ALL_END s.
CHECK_END=${CHECK_END:-290}
ALL_END=${ALL_END:-585}
DEADLINE=$ALL_END
left() { echo $((DEADLINE - (SECONDS - T0))); }
# run <record file stem> <timeout s> <spmma gemm args...>: the timeout is cut to the time left.
run() {
    local name=$1 limit=$2; shift 2
    local l; l=$(left)
    [ "$l" -lt "$limit" ] && limit=$l
    if [ "$limit" -lt 5 ]; then note "skipped (out of time): spmma gemm $*"; return; fi
    echo "+ spmma gemm $*" >> "$OUT/$name.log"
    timeout "$limit" "$SPMMA" gemm --plugin sm90a --no-progress --json "$OUT/$name.jsonl" "$@" >> "$OUT/$name.log" 2>&1
    local rc=$?
    if [ $rc -ne 0 ]; then FAILS=$((FAILS + 1)); note "FAIL (exit $rc$([ $rc = 124 ] && echo ', timed out')): spmma gemm $*"; fi
}

# ---- (a) ----------------------------------------------------------------------------------
note "sm90a device run $(date -u +%FT%TZ), mode $MODE, build $BUILD"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader 2>&1 | tee -a "$OUT/summary.txt"
ldd "$BUILD/lib/spmma/plugins/spmma-sm90a.so" > "$OUT/ldd.txt" 2>&1
grep -q "not found" "$OUT/ldd.txt" && note "ldd: missing libraries (see ldd.txt)"
"$SPMMA" plugins --verbose > "$OUT/plugins.txt" 2>&1
grep -A3 -i "sm90a" "$OUT/plugins.txt" | head -6 | tee -a "$OUT/summary.txt"

if [ "$MODE" = all ] || [ "$MODE" = check ]; then
    [ "$MODE" = all ] && DEADLINE=$CHECK_END
    # ---- (b) ------------------------------------------------------------------------------
    timeout 90 "$BUILD/bin/test_sm90a" "[device]" > "$OUT/device_test.txt" 2>&1
    rc=$?
    tail -4 "$OUT/device_test.txt" | tee -a "$OUT/summary.txt"
    [ $rc -ne 0 ] && { FAILS=$((FAILS + 1)); note "FAIL: test_sm90a [device] (exit $rc)"; }

    # ---- (c) ------------------------------------------------------------------------------
    note "correctness"
    V="--warmup 1 --iterations 2"
    ODD="--m 1000,1111 --n 777 --k 1000,2048 --verify full"   # m/n tails, odd n, k off the stage
    BIG1="--m 4096 --n 4096 --k 4096 --verify sampled"
    BIG2="--m 8192 --n 2048 --k 28672 --verify sampled"
    # name | type flags | kernel-name prefix | big shapes too
    FAMILIES=(
        "f16_f32|--dtype f16 --acc f32 --out f16|sm90a_f16f16_f32|big"
        "f16_f16|--dtype f16 --acc f16 --out f16|sm90a_f16f16_f16|big"
        "bf16|--dtype bf16 --acc f32 --out bf16|sm90a_bf16bf16_f32|big"
        "tf32|--dtype tf32 --acc f32 --out f32|sm90a_tf32tf32_f32|big"
        "e4m3e4m3_f32|--a-type e4m3 --b-type e4m3 --acc f32 --out f16|sm90a_e4m3e4m3_f32|big"
        "e4m3e5m2_f32|--a-type e4m3 --b-type e5m2 --acc f32 --out f32|sm90a_e4m3e5m2_f32|"
        "e5m2e4m3_f32|--a-type e5m2 --b-type e4m3 --acc f32 --out bf16|sm90a_e5m2e4m3_f32|"
        "e5m2e5m2_f32|--a-type e5m2 --b-type e5m2 --acc f32 --out f32|sm90a_e5m2e5m2_f32|"
        "e4m3e4m3_f16|--a-type e4m3 --b-type e4m3 --acc f16 --out f16|sm90a_e4m3e4m3_f16|big"
        "e4m3e5m2_f16|--a-type e4m3 --b-type e5m2 --acc f16 --out f16|sm90a_e4m3e5m2_f16|"
        "e5m2e4m3_f16|--a-type e5m2 --b-type e4m3 --acc f16 --out f32|sm90a_e5m2e4m3_f16|"
        "e5m2e5m2_f16|--a-type e5m2 --b-type e5m2 --acc f16 --out f16|sm90a_e5m2e5m2_f16|"
        "s8s8|--a-type s8 --b-type s8 --acc s32 --out s32|sm90a_s8s8_s32|big"
        "s8u8|--a-type s8 --b-type u8 --acc s32 --out s32|sm90a_s8u8_s32|"
        "u8s8|--a-type u8 --b-type s8 --acc s32 --out s32|sm90a_u8s8_s32|"
        "u8u8|--a-type u8 --b-type u8 --acc s32 --out s32|sm90a_u8u8_s32|"
        "s8s8_sat|--a-type s8 --b-type s8 --acc s32 --out s32 --satfinite|sm90a_s8s8_s32sat|big"
        "s8u8_sat|--a-type s8 --b-type u8 --acc s32 --out s32 --satfinite|sm90a_s8u8_s32sat|"
        "u8s8_sat|--a-type u8 --b-type s8 --acc s32 --out s32 --satfinite|sm90a_u8s8_s32sat|"
        "u8u8_sat|--a-type u8 --b-type u8 --acc s32 --out s32 --satfinite|sm90a_u8u8_s32sat|"
    )
    # The simple kernels (64x128, one consumer, no cluster) first: if they fail, nothing else can.
    for g in "${FAMILIES[@]}"; do
        IFS='|' read -r name types prefix big <<< "$g"
        run "correct_$name" 40 $types --kernel "${prefix}_64x128*" $ODD $V
    done
    # Then the warp-specialised two-consumer kernels, with and without clusters.
    for g in "${FAMILIES[@]}"; do
        IFS='|' read -r name types prefix big <<< "$g"
        run "correct_$name" 60 $types --kernel "${prefix}_128x*,${prefix}_256x*" $ODD $V
    done
    run correct_f16_out_f32 40 --dtype f16 --acc f32 --out f32 --kernel 'sm90a_f16f16_f32_256x*' $ODD $V
    run correct_alpha_beta_f16 40 --dtype f16 --acc f32 --out f16 --alpha 1.5 --beta -0.5 --kernel 'sm90a_f16f16_f32_*' $ODD $V
    run correct_alpha_beta_s8 40 --a-type s8 --b-type s8 --acc s32 --out s32 --alpha 2 --beta -3 --kernel 'sm90a_s8s8_s32_*' $ODD $V
    run correct_heuristic 40 --dtype f16,bf16,e4m3,s8 --m 77,3000 --n 1000,4097 --k 1024 --verify full $V
    note "correctness, big shapes"
    for g in "${FAMILIES[@]}"; do
        IFS='|' read -r name types prefix big <<< "$g"
        [ "$big" = big ] || continue
        run "correct_big_$name" 60 $types --kernel "${prefix}_*" $BIG1 $V
        run "correct_big_$name" 60 $types --kernel "${prefix}_*" $BIG2 $V
    done
fi

if [ "$MODE" = all ] || [ "$MODE" = perf ]; then
    DEADLINE=$ALL_END
    # ---- (d) ------------------------------------------------------------------------------
    note "timings: every f16/bf16 kernel at 8192^3 and 16384^3"
    P="--warmup 5 --iterations 20 --verify sampled"
    for s in 8192 16384; do
        run perf_kernels 60 --dtype f16 --acc f32 --out f16 --kernel 'sm90a_f16f16_f32_*' --m $s --n $s --k $s $P
        run perf_kernels 60 --dtype bf16 --acc f32 --out bf16 --kernel 'sm90a_bf16bf16_f32_*' --m $s --n $s --k $s $P
    done
    note "peers at 8192^3 and 16384^3, f16 and bf16 (PyTorch: cuBLAS dense, cuSPARSELt)"
    if [ -f shared/bench/peers.py ]; then
        mkdir -p "$OUT/peers_main"
        OUT="$OUT/peers_main" timeout 60 python3 shared/bench/peers.py --shapes 8192x8192x8192,16384x16384x16384 \
            --dtypes f16,bf16 > "$OUT/peers_main.txt" 2>&1 || note "peers.py exit $?"
    else
        note "shared/bench/peers.py missing: copy /work/shared/bench/peers.py to shared/bench/"
    fi
    note "timings: standard shape set (configs/llm-shapes.toml), heuristic choice"
    l=$(( $(left) - 100 ))
    if [ "$l" -gt 20 ]; then
        timeout "$l" "$SPMMA" run configs/llm-shapes.toml --plugin sm90a --no-progress --json "$OUT/perf_standard.jsonl" \
            > "$OUT/perf_standard.log" 2>&1 || note "spmma run configs/llm-shapes.toml exit $? (records so far are kept)"
    else
        note "skipped (out of time): standard shape set"
    fi
    l=$(left)
    if [ -f shared/bench/peers.py ] && [ "$l" -gt 30 ]; then
        note "peers, standard shape set (cut at ${l}s)"
        OUT="$OUT" timeout "$l" python3 shared/bench/peers.py > "$OUT/peers.txt" 2>&1 || note "peers.py exit $?"
    fi
fi

# ---- (e) ------------------------------------------------------------------------------------
note "done: $FAILS failed step(s)"
python3 bench/sm90a/table.py "$OUT" | tee "$OUT/table.txt"
