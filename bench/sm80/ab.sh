#!/usr/bin/env bash
# A/B of two sm80 kernels (name suffixes after the type prefix, e.g. A=256x128x64_s4_om
# B=128x128x64_s4_om), in one device call from the repository root with the build carried
# (bench/device/pack.sh; bench/device/prepare.sh first). Logs and records under $OUT:
#   (a) test_sm80 [device],[abi];
#   (b) kernel B (om and sp) at odd m/n and k of 1, 2, 3, 5, 9 and 16 stages, f16 (f32 and f16
#       accumulation) and bf16, alpha/beta with C, full verification; 4096^3 full;
#   (c) f16 and bf16 at the standard shapes, both kernels on the same operands, REPS times;
#   (d) the table: TFLOP/s per shape, kernel and repetition, next to the CUTLASS Ampere bar.
set -u
OUT=${OUT:-$PWD/sm80-ab-out}
REPS=${REPS:-2}
A=${A:?A=<kernel suffix, e.g. 256x128x64_s4_om>}
B=${B:?B=<kernel suffix>}
BSP=${B%_om}_sp
mkdir -p "$OUT"
S=build/bin/spmma
FAILS=0
note() { echo "== $* (t=${SECONDS}s)" | tee -a "$OUT/summary.txt"; }
N=0
run() {  # run <record stem> <spmma gemm args...>; --json rewrites its file: one per call
    local name=$1; shift
    N=$((N + 1))
    echo "+ spmma gemm $*" >> "$OUT/$name.log"
    timeout 120 "$S" gemm --plugin sm80 --no-progress --json "$OUT/${name}_$N.jsonl" "$@" >> "$OUT/$name.log" 2>&1 \
        || { FAILS=$((FAILS + 1)); note "FAIL (exit $?): spmma gemm $*"; }
}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee -a "$OUT/summary.txt"
build/bin/test_sm80 "[device],[abi]" > "$OUT/device_test.txt" 2>&1 || { FAILS=$((FAILS + 1)); note "FAIL: test_sm80"; }
tail -2 "$OUT/device_test.txt" | tee -a "$OUT/summary.txt"
V="--warmup 1 --iterations 2 --verify full"
run check_B_f16 --dtype f16 --m 1000,77 --n 1000,135 --k 64,128,192,320,520,1024 --kernel "*_${B},*_${BSP}" $V
run check_B_f16acc --dtype f16 --acc f16 --out f16 --m 1000 --n 1000 --k 192,1024 --kernel "*_${B},*_${BSP}" $V
run check_B_bf16 --dtype bf16 --m 1000,77 --n 1000,135 --k 64,192,520,1024 --kernel "*_${B},*_${BSP}" $V
run check_B_ab --dtype f16 --alpha 0.5 --beta 2 --m 1000 --n 999 --k 1000 --kernel "*_${B},*_${BSP}" $V
run check_B_big --dtype f16 --m 4096 --n 4096 --k 4096 --kernel "*_${B}" $V
note "correctness done, failures: $FAILS"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,nounits -lms 200 \
    > "$OUT/clocks.csv" 2>&1 &
CLOCKS=$!
for s in 4096x4096x4096 8192x8192x8192 16384x16384x16384 11008x4096x4096 28672x4096x8192 8192x2048x28672; do
    IFS=x read -r m n k <<< "$s"
    for r in $(seq "$REPS"); do
        for dt in f16 bf16; do  # both kernels in one process: the same operands, A first
            run "perf_r$r" --dtype $dt --m $m --n $n --k $k --warmup 5 --iterations 20 --verify sampled \
                --kernel "*_${dt}${dt}_f32_$A,*_${dt}${dt}_f32_$B"
        done
    done
done
kill $CLOCKS 2>/dev/null
note "done, failures: $FAILS"
python3 - "$OUT" "$A" "$B" <<'PY'
import glob, json, os, sys
out, ka, kb = sys.argv[1], sys.argv[2], sys.argv[3]
bar = {"4096x4096x4096": 653, "8192x8192x8192": 697, "16384x16384x16384": 613, "11008x4096x4096": 639,
       "28672x4096x8192": 656, "8192x2048x28672": 714}
print("correctness (records verified / total):")
for p in sorted(glob.glob(os.path.join(out, "check_*.jsonl"))):
    rs = [json.loads(l) for l in open(p) if l.strip()]
    print(f"  {os.path.basename(p)[:-6]:<28} {sum(r.get('status') == 'verified' for r in rs)} / {len(rs)}")
cells = {}
for p in sorted(glob.glob(os.path.join(out, "perf_r*.jsonl"))):
    rep = os.path.basename(p).split("_")[1]
    for l in open(p):
        if not l.strip(): continue
        r = json.loads(l)
        if r.get("status") != "verified": continue
        q = r["problem"]
        key = (f"{q['m']}x{q['n']}x{q['k']}", q["a_type"])
        cells.setdefault(key, {}).setdefault(r["kernel"].split("_f32_")[1], []).append(round(r["timing"]["tflops"]))
print("TFLOP/s per repetition (sampled verification passed), bar = CUTLASS Ampere sparse f16 on the H200")
print(f"  {'m x n x k':<18} {'type':<5} {'A: ' + ka:>26} {'B: ' + kb:>26} {'bar':>5}")
for (shape, t), ks in cells.items():
    a = ks.get(ka, []); b = ks.get(kb, [])
    print(f"  {shape:<18} {t:<5} {'/'.join(map(str, a)):>26} {'/'.join(map(str, b)):>26} {bar[shape] if t == 'f16' else '':>5}")
PY
