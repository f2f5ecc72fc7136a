#!/usr/bin/env bash
# A/B of sm80 kernels in one run from the repository root with the build copied there
# (bench/device/pack.sh; bench/device/prepare.sh first). Kernels are named by their suffix after
# the type prefix: KERNELS="256x128x64_s4_om 256x128x64_s3_om ..." (the first is the reference
# column), or A=... B=... for two. Logs and records under $OUT:
#   (a) test_sm80 [device],[abi];
#   (b) every kernel after the first (om, and sp where one exists) at odd m/n and k of 1, 2, 3,
#       5, 9 and 16 stages, f16 (f32 and f16 accumulation where the kernel exists) and bf16,
#       alpha/beta with C, full verification; 4096^3 full;
#   (c) DTYPES (default "f16 bf16") at the standard shapes, all kernels in one process on the
#       same operands, REPS times (DIST=uniform|int, default uniform);
#   (d) the CUTLASS Ampere sparse peer (build/bench-cutlass/cutlass_sm80_sparse, built by
#       bench/cutlass/build.sh) on the same GPU in the same run, where it was copied
#       (CUTLASS=0 skips it);
#   (e) the table: TFLOP/s per shape, kernel and repetition, CUTLASS's best tile on the same
#       distribution, and PERF.md's bar.
set -u
OUT=${OUT:-$PWD/sm80-ab-out}
REPS=${REPS:-2}
DIST=${DIST:-uniform}
DTYPES=${DTYPES:-f16 bf16}
if [ -z "${KERNELS:-}" ]; then
    KERNELS="${A:?KERNELS=<suffixes> or A=<kernel suffix, e.g. 256x128x64_s4_om>} ${B:?B=<kernel suffix>}"
fi
read -r -a KS <<< "$KERNELS"
mkdir -p "$OUT"
S=build/bin/spmma
FAILS=0
note() { echo "== $* (t=${SECONDS}s)" | tee -a "$OUT/summary.txt"; }
N=0
run() {  # run <record stem> <spmma gemm args...>; --json rewrites its file: one per call
    local name=$1; shift
    N=$((N + 1))
    echo "+ spmma gemm $*" >> "$OUT/$name.log"
    timeout 120 "$S" gemm --plugin sm80 --no-progress --json "$OUT/${name}_$N.jsonl" "$@" >> "$OUT/$name.log" 2>&1
    local rc=$?
    if [ $rc -ne 0 ]; then FAILS=$((FAILS + 1)); note "FAIL (exit $rc): spmma gemm $*"; fi
}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader | tee -a "$OUT/summary.txt"
build/bin/test_sm80 "[device],[abi]" > "$OUT/device_test.txt" 2>&1 || { FAILS=$((FAILS + 1)); note "FAIL: test_sm80"; }
tail -2 "$OUT/device_test.txt" | tee -a "$OUT/summary.txt"
V="--warmup 1 --iterations 2 --verify full"
"$S" plugins -v > "$OUT/plugins.txt" 2>&1
for K in "${KS[@]:1}"; do
    KSP=${K/_om/_sp}  # the mma.sp twin (a glob that matches no kernel selects nothing)
    SEL="*_${K}"; [ "$KSP" != "$K" ] && SEL="$SEL,*_${KSP}"
    run "check_${K}_f16" --dtype f16 --m 1000,77 --n 1000,135 --k 64,128,192,320,520,1024 --kernel "$SEL" $V
    if grep -q " sm80_f16f16_f16_${K} " "$OUT/plugins.txt"; then  # the f16-accumulating twin, where it exists
        run "check_${K}_f16acc" --dtype f16 --acc f16 --out f16 --m 1000 --n 1000 --k 192,1024 --kernel "$SEL" $V
    fi
    run "check_${K}_bf16" --dtype bf16 --m 1000,77 --n 1000,135 --k 64,192,520,1024 --kernel "$SEL" $V
    run "check_${K}_ab" --dtype f16 --alpha 0.5 --beta 2 --m 1000 --n 999 --k 1000 --kernel "$SEL" $V
    run "check_${K}_big" --dtype f16 --m 4096 --n 4096 --k 4096 --kernel "*_${K}" $V
done
note "correctness done, failures: $FAILS"
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv,nounits -lms 200 \
    > "$OUT/clocks.csv" 2>&1 &
CLOCKS=$!
for s in 4096x4096x4096 8192x8192x8192 16384x16384x16384 11008x4096x4096 28672x4096x8192 8192x2048x28672; do
    IFS=x read -r m n k <<< "$s"
    for r in $(seq "$REPS"); do
        for dt in $DTYPES; do  # every kernel in one process: the same operands, the list's order
            SEL=$(printf "*_${dt}${dt}_f32_%s," "${KS[@]}")
            run "perf_r$r" --dtype $dt --m $m --n $n --k $k --dist "$DIST" --warmup 5 --iterations 20 --verify sampled \
                --kernel "${SEL%,}"
        done
    done
done
kill $CLOCKS 2>/dev/null
CUT=build/bench-cutlass/cutlass_sm80_sparse
if [ "${CUTLASS:-1}" != 0 ] && [ -x "$CUT" ]; then
    note "CUTLASS peer: $CUT"
    "$CUT" > "$OUT/cutlass.txt" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then FAILS=$((FAILS + 1)); note "FAIL (exit $rc): $CUT (see cutlass.txt)"; fi
fi
note "done, failures: $FAILS"
python3 - "$OUT" "$DIST" "${KS[@]}" <<'PY'
import glob, json, os, sys
out, dist, names = sys.argv[1], sys.argv[2], sys.argv[3:]
bar = {"4096x4096x4096": 653, "8192x8192x8192": 697, "16384x16384x16384": 613, "11008x4096x4096": 639,
       "28672x4096x8192": 656, "8192x2048x28672": 714}
cut = {}  # CUTLASS's best tile per shape on this distribution
if os.path.exists(os.path.join(out, "cutlass.txt")):
    for l in open(os.path.join(out, "cutlass.txt")):
        f = l.split()
        if len(f) >= 5 and f[0] in bar and f[1] == dist:
            cut[f[0]] = max(float(x) for x in f[2:5])
print("correctness (records verified / total):")
for p in sorted(glob.glob(os.path.join(out, "check_*.jsonl"))):
    rs = [json.loads(l) for l in open(p) if l.strip()]
    print(f"  {os.path.basename(p)[:-6]:<40} {sum(r.get('status') == 'verified' for r in rs)} / {len(rs)}")
cells = {}
for p in sorted(glob.glob(os.path.join(out, "perf_r*.jsonl"))):
    for l in open(p):
        if not l.strip(): continue
        r = json.loads(l)
        if r.get("status") != "verified": continue
        q = r["problem"]
        key = (f"{q['m']}x{q['n']}x{q['k']}", q["a_type"])
        cells.setdefault(key, {}).setdefault(r["kernel"].split("_f32_")[1], []).append(round(r["timing"]["tflops"]))
print(f"TFLOP/s per repetition (sampled verification passed), {dist} operands; CUTLASS = its best tile,")
print("same GPU, same call, same distribution (f16); bar = PERF.md's CUTLASS Ampere sparse f16 on the H200")
print(f"  {'m x n x k':<18} {'type':<5}" + "".join(f" {n:>20}" for n in names) + f" {'CUTLASS':>8} {'bar':>5}")
for (shape, t), ks in cells.items():
    row = "".join(f" {'/'.join(map(str, ks.get(n, []))):>20}" for n in names)
    c = f"{cut[shape]:.0f}" if t == "f16" and shape in cut else ""
    print(f"  {shape:<18} {t:<5}{row} {c:>8} {bar[shape] if t == 'f16' else '':>5}")
PY
