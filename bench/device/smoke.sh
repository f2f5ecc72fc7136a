#!/usr/bin/env bash
# After a change that touches several plugins: one run that re-checks all of them on a
# Hopper GPU, from the repository root with the build copied there (bench/device/pack.sh):
#   bench/device/prepare.sh; OUT=$OUT bench/device/smoke.sh
# 1. the instruction models against the hardware (test_sm80 / test_sm90a [device]);
# 2. configs/quick.toml on every plugin that takes its problems;
# 3. the baseline plugins (cublas, cusparselt) at odd and even sizes, full verification;
# 4. sm90a at odd shapes for every 16-bit output path (n = 777 / 1000 / 1024: no, 8-byte and
#    16-byte alignment of D's rows; m and k tails; alpha/beta with C), full verification;
# 5. unless SHAPES=0: the standard set, sm90a's heuristic next to both vendor libraries.
# Prints a summary line per step; exit 1 if any step failed.
set -u
cd "$(dirname "$0")/../.."
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/smoke-out}
mkdir -p "$OUT"
S="$BUILD/bin/spmma"
FAILS=0
step() {  # step <name> <timeout> <command...>
    local name=$1 limit=$2; shift 2
    local t0=$SECONDS
    timeout "$limit" "$@" > "$OUT/$name.log" 2>&1
    local rc=$?
    [ $rc -ne 0 ] && FAILS=$((FAILS + 1))
    printf '%-22s exit %3d  %4ds  %s\n' "$name" "$rc" $((SECONDS - t0)) "$(grep -E 'All tests passed|test cases|verified,' "$OUT/$name.log" | tail -1)"
}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
step device_sm80 120 "$BUILD/bin/test_sm80" "[device]"
step device_sm90a 120 "$BUILD/bin/test_sm90a" "[device]"
step quick 200 "$S" run configs/quick.toml --no-progress --json "$OUT/quick.jsonl"
step baselines 120 "$S" gemm --plugin cublas,cusparselt --m 1000,4096 --n 1000,4096 --k 1024 \
    --dtype f16,bf16,e4m3,s8 --verify full --warmup 1 --iterations 3 --no-progress --json "$OUT/baselines.jsonl"
ODD="--m 1111 --n 777,1000,1024 --k 1024 --alpha 1.5 --beta -0.5 --verify full --warmup 1 --iterations 2 --no-progress"
step sm90a_16bit 200 "$S" gemm --plugin sm90a --kernel 'sm90a_*' --dtype f16,bf16,e4m3 $ODD --json "$OUT/sm90a_16bit.jsonl"
step sm90a_16bit_acc16 120 "$S" gemm --plugin sm90a --kernel 'sm90a_*' --dtype f16,e4m3 --acc f16 $ODD \
    --json "$OUT/sm90a_16bit_acc16.jsonl"
if [ "${SHAPES:-1}" != 0 ]; then
    step shapes 330 "$S" run configs/llm-shapes.toml --plugin sm90a,cublas,cusparselt --baseline cublas \
        --no-progress --json "$OUT/shapes.jsonl"
fi
echo "failed steps: $FAILS"
exit $((FAILS > 0))
