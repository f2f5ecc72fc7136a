#!/usr/bin/env bash
# The sm90a plugin on a Hopper GPU, in ONE run (< 10 min), from the repository root
# with the build folder copied there (BUILD=build by default; it must hold bin/spmma, bin/test_sm90a,
# bin/spmma-bench-sm90a-wgmma and lib/spmma/plugins/spmma-{sm90a,cublas,cusparselt}.so):
#   bench/sm90a/device.sh [all|check|perf]        logs and records under $OUT
#   (a) the GPU, what the plugin links against, the plugins spmma sees;
#   (b) the device test: the real wgmma.mma_async.sp vs the bit-level model, every variant;
#   (c) the throughput probe: sparse and dense wgmma from shared memory, nothing else running;
#   (d) correctness of every kernel: odd shapes (m, n, k tails; full verification) per type
#       family, alpha/beta with C, 4096^3 full for the main types; a family that fails is run
#       again with SPMMA_SM90A_SERIAL_WGMMA=1 (no wgmma in flight across k-tiles) to tell a
#       pipelining race from a layout error;
#   (e) the standard shape set (shared/PERF.md) for f16, bf16, e4m3 and s8: every sm90a kernel of
#       the type and the cuBLAS / cuSPARSELt plugins on the same operands (one spmma call per
#       shape and type), then the heuristic's choice (configs/llm-shapes.toml), then PyTorch's
#       peers (bench/baselines/peers.py);
#   (f) one table last (bench/sm90a/table.py): correctness, the probe, per shape and type the
#       heuristic, the best kernel and every peer with ratios, the 16384^3 bar.
# Every step runs under `timeout` cut to the time left, so one hung kernel costs its slot only.
# NOTES: never name a variable GROUPS here (bash reserves it).
set -u
MODE=${1:-all}
cd "$(dirname "$0")/../.."
. bench/sm90a/steps.sh

# ---- (a) ----------------------------------------------------------------------------------
note "sm90a device run $(date -u +%FT%TZ), mode $MODE, build $BUILD"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader 2>&1 | tee -a "$OUT/summary.txt"
ldd "$BUILD/lib/spmma/plugins/spmma-sm90a.so" > "$OUT/ldd.txt" 2>&1
grep -q "not found" "$OUT/ldd.txt" && note "ldd: missing libraries (see ldd.txt)"
"$SPMMA" plugins > "$OUT/plugins.txt" 2>&1
grep -E "^(sm90a|cublas|cusparselt)|status" "$OUT/plugins.txt" | head -8 | tee -a "$OUT/summary.txt"

if [ "$MODE" = all ] || [ "$MODE" = check ]; then
    # ---- (b) ------------------------------------------------------------------------------
    timeout 90 "$BUILD/bin/test_sm90a" "[device]" > "$OUT/device_test.txt" 2>&1
    rc=$?
    tail -2 "$OUT/device_test.txt" | tee -a "$OUT/summary.txt"
    [ $rc -ne 0 ] && { FAILS=$((FAILS + 1)); note "FAIL: test_sm90a [device] (exit $rc)"; }
    # ---- (c) ------------------------------------------------------------------------------
    note "throughput probe"
    timeout 60 "$BUILD/bin/spmma-bench-sm90a-wgmma" > "$OUT/rate.txt" 2>&1 || note "probe exit $?"

    # ---- (d) ------------------------------------------------------------------------------
    note "correctness"
    V="--plugin sm90a --warmup 1 --iterations 2"
    ODD="--m 1000,1111 --n 777 --k 1000,2048 --verify full"   # m/n tails, odd n, k off the stage
    # name | type flags | kernel-name prefix | 4096^3 full check too
    FAMILIES=(
        "f16_f32|--dtype f16 --acc f32 --out f16|sm90a_f16f16_f32|big"
        "f16_f16|--dtype f16 --acc f16 --out f16|sm90a_f16f16_f16|big"
        "bf16|--dtype bf16 --acc f32 --out bf16|sm90a_bf16bf16_f32|big"
        "tf32|--dtype tf32 --acc f32 --out f32|sm90a_tf32tf32_f32|big"
        "e4m3e4m3_f32|--a-type e4m3 --b-type e4m3 --acc f32 --out bf16|sm90a_e4m3e4m3_f32|big"
        "e4m3e5m2_f32|--a-type e4m3 --b-type e5m2 --acc f32 --out f32|sm90a_e4m3e5m2_f32|"
        "e5m2e4m3_f32|--a-type e5m2 --b-type e4m3 --acc f32 --out f16|sm90a_e5m2e4m3_f32|"
        "e5m2e5m2_f32|--a-type e5m2 --b-type e5m2 --acc f32 --out f32|sm90a_e5m2e5m2_f32|"
        "e4m3e4m3_f16|--a-type e4m3 --b-type e4m3 --acc f16 --out f16|sm90a_e4m3e4m3_f16|"
        "e4m3e5m2_f16|--a-type e4m3 --b-type e5m2 --acc f16 --out f16|sm90a_e4m3e5m2_f16|"
        "e5m2e4m3_f16|--a-type e5m2 --b-type e4m3 --acc f16 --out f16|sm90a_e5m2e4m3_f16|"
        "e5m2e5m2_f16|--a-type e5m2 --b-type e5m2 --acc f16 --out f16|sm90a_e5m2e5m2_f16|"
        "s8s8|--a-type s8 --b-type s8 --acc s32 --out s32|sm90a_s8s8_s32|big"
        "s8u8|--a-type s8 --b-type u8 --acc s32 --out s32|sm90a_s8u8_s32|"
        "u8s8|--a-type u8 --b-type s8 --acc s32 --out s32|sm90a_u8s8_s32|"
        "u8u8|--a-type u8 --b-type u8 --acc s32 --out s32|sm90a_u8u8_s32|"
        "s8s8_sat|--a-type s8 --b-type s8 --acc s32 --out s32 --satfinite|sm90a_s8s8_s32sat|"
        "s8u8_sat|--a-type s8 --b-type u8 --acc s32 --out s32 --satfinite|sm90a_s8u8_s32sat|"
        "u8s8_sat|--a-type u8 --b-type s8 --acc s32 --out s32 --satfinite|sm90a_u8s8_s32sat|"
        "u8u8_sat|--a-type u8 --b-type u8 --acc s32 --out s32 --satfinite|sm90a_u8u8_s32sat|"
    )
    FAILED_FAMILIES=()
    for g in "${FAMILIES[@]}"; do
        IFS='|' read -r name types prefix big <<< "$g"
        run "correct_$name" 60 $V $types --kernel "${prefix}_*" $ODD || FAILED_FAMILIES+=("$g")
    done
    run correct_alpha_beta_f16 40 $V --dtype f16 --acc f32 --out f16 --alpha 1.5 --beta -0.5 \
        --kernel 'sm90a_f16f16_f32_*' --m 1111 --n 777 --k 1000 --verify full
    run correct_alpha_beta_s8 40 $V --a-type s8 --b-type s8 --acc s32 --out s32 --alpha 2 --beta -3 \
        --kernel 'sm90a_s8s8_s32_*' --m 1111 --n 777 --k 1000 --verify full
    run correct_heuristic 40 $V --dtype f16,bf16,e4m3,s8 --m 77,3000 --n 1000,4097 --k 1024 --verify full
    # Diagnostics: a failing family again with no wgmma in flight across k-tiles.
    for g in "${FAILED_FAMILIES[@]}"; do
        IFS='|' read -r name types prefix big <<< "$g"
        note "diagnostics: $name with SPMMA_SM90A_SERIAL_WGMMA=1"
        export SPMMA_SM90A_SERIAL_WGMMA=1
        run "serial_$name" 40 $V $types --kernel "${prefix}_*" $ODD || FAILS=$((FAILS - 1))  # not a failure of its own
        unset SPMMA_SM90A_SERIAL_WGMMA
    done
    note "correctness at 4096^3 (full verification)"
    for g in "${FAMILIES[@]}"; do
        IFS='|' read -r name types prefix big <<< "$g"
        [ "$big" = big ] || continue
        run "correct_big_$name" 60 $V $types --kernel "${prefix}_*" --m 4096 --n 4096 --k 4096 --verify full
    done
fi

if [ "$MODE" = all ] || [ "$MODE" = perf ]; then
    # ---- (e) ------------------------------------------------------------------------------
    note "standard shape set: every sm90a kernel and the cuBLAS / cuSPARSELt plugins on the same operands"
    P="--warmup 5 --iterations 20 --verify sampled"
    # SM clock, power and throttle reasons every 500 ms while timing (is the limit the clock?).
    nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
        --format=csv -lms 500 > "$OUT/clocks.csv" 2>&1 &
    CLOCKS_PID=$!
    SHAPES="16384x16384x16384 8192x8192x8192 4096x4096x4096 11008x4096x4096 28672x4096x8192 8192x2048x28672"
    for s in $SHAPES; do
        IFS=x read -r m n k <<< "$s"
        for t in "f16|sm90a_f16f16_f32" "bf16|sm90a_bf16bf16_f32" "e4m3|sm90a_e4m3e4m3_f32" "s8|sm90a_s8s8_s32"; do
            IFS='|' read -r dt prefix <<< "$t"
            runj perf 90 --plugin sm90a,cublas,cusparselt --dtype "$dt" --m "$m" --n "$n" --k "$k" $P \
                --kernel "${prefix}_*,cublaslt_*,cusparselt_*"
        done
    done
    kill "$CLOCKS_PID" 2>/dev/null
    note "SM clock while timing (MHz, median/min): $(awk -F', ' 'NR > 1 && $2 + 0 > 0 {print $2 + 0}' "$OUT/clocks.csv" | sort -n | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)] "/" v[1]}')"
    note "standard shape set, the heuristic's choice (configs/llm-shapes.toml)"
    l=$(( $(left) - 90 ))
    if [ "$l" -gt 20 ]; then
        timeout "$l" "$SPMMA" run configs/llm-shapes.toml --plugin sm90a --no-progress --json "$OUT/heuristic.jsonl" \
            > "$OUT/heuristic.log" 2>&1 || note "spmma run configs/llm-shapes.toml exit $? (records so far are kept)"
    else
        note "skipped (out of time): heuristic run"
    fi
    l=$(( $(left) - 5 ))
    if [ "$l" -gt 30 ]; then
        note "PyTorch peers, standard shape set (cut at ${l}s)"
        (cd "$OUT" && OUT="$OUT" timeout "$l" python3 "$OLDPWD/bench/baselines/peers.py") > "$OUT/peers.txt" 2>&1 \
            || note "peers.py exit $?"
    else
        note "skipped: PyTorch peers (out of time)"
    fi
fi

# ---- (f) ------------------------------------------------------------------------------------
note "done: $FAILS failed step(s)"
python3 bench/sm90a/table.py "$OUT" | tee "$OUT/table.txt"
