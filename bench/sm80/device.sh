#!/usr/bin/env bash
# The sm80 plugin on a GPU machine, in one run from the repository root:
#   bench/sm80/device.sh [all|check|perf]      (default all; logs under $OUT)
# Needs the Release build folder build/ (spmma, test_sm80, the plugins) and, for the peers,
# bench/baselines/peers.py. Phases:
#   (a) what the plugin links against, the GPU, the plugins spmma sees
#   (b) the device test: mma.sp on the GPU vs the bit-level model, every form the plugin issues
#   (c) correctness: every type at odd and standard shapes, both metadata variants, alpha/beta
#   (d) timing: f16 and bf16 on the standard shape set, every tile config (ordered metadata),
#       plus the default kernel with mma.sp (non-ordered) for comparison
#   (e) the peers in the same run: cuBLAS dense and cuSPARSELt (bench/baselines/peers.py), and
#       CUTLASS's Ampere sparse GEMM (build/bench-cutlass/cutlass_sm80_sparse from
#       bench/cutlass/build.sh) where it was copied
# A short table comes last: per shape, the best sm80 kernel and the peers.
set -u
MODE=${1:-all}
OUT=${OUT:-$PWD/sm80-device-out}
mkdir -p "$OUT"
B=${SPMMA_BUILD:-build}
SPMMA=$B/bin/spmma
STANDARD="4096x4096x4096 8192x8192x8192 16384x16384x16384 11008x4096x4096 28672x4096x8192 8192x2048x28672"
FAILS=0
note() { echo "== $*" | tee -a "$OUT/summary.txt"; }
# run <log name> <spmma gemm args...>: records to $OUT/json/<name>_<n>.jsonl (one file per call:
# --json rewrites its file), the table to $OUT/<name>.log; counts failures.
RUN_ID=0
mkdir -p "$OUT/json"
run() {
    local name=$1; shift
    RUN_ID=$((RUN_ID + 1))
    echo "+ spmma gemm $*" >> "$OUT/$name.log"
    "$SPMMA" gemm --plugin sm80 --no-progress --json "$OUT/json/${name}_$RUN_ID.jsonl" "$@" >> "$OUT/$name.log" 2>&1
    local rc=$?
    if [ $rc -ne 0 ]; then FAILS=$((FAILS + 1)); note "FAIL (exit $rc): spmma gemm $*"; fi
}
shape_args() { local s=$1; echo "--m ${s%%x*} --n $(echo "$s" | cut -dx -f2) --k ${s##*x}"; }

# ---- (a) ----------------------------------------------------------------------------------
note "sm80 device run $(date -u +%FT%TZ), mode $MODE"
ldd $B/lib/spmma/plugins/spmma-sm80.so > "$OUT/ldd.txt" 2>&1
grep -q "not found" "$OUT/ldd.txt" && note "ldd: missing libraries (see ldd.txt)"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv > "$OUT/gpu.txt" 2>&1
cat "$OUT/gpu.txt" | tee -a "$OUT/summary.txt"
"$SPMMA" plugins --verbose > "$OUT/plugins.txt" 2>&1

if [ "$MODE" = all ] || [ "$MODE" = check ]; then
    # ---- (b) ------------------------------------------------------------------------------
    $B/bin/test_sm80 "[device],[abi]" > "$OUT/device_test.txt" 2>&1
    rc=$?
    tail -3 "$OUT/device_test.txt" | tee -a "$OUT/summary.txt"
    [ $rc -ne 0 ] && { FAILS=$((FAILS + 1)); note "FAIL: test_sm80 [device],[abi] (exit $rc)"; }

    # ---- (c) ------------------------------------------------------------------------------
    T0=$SECONDS
    V="--warmup 1 --iterations 2"
    ODD="--m 1000,77 --n 1000,135 --k 1024,520"   # tails in m, n; k off the stage (520)
    for dt in f16 bf16 tf32 s8 u8 e4m3 e5m2; do
        run check_odd --dtype $dt $ODD --verify full $V
    done
    for dt in s4 u4; do run check_odd --dtype $dt --m 1000,77 --n 1000,135 --k 1024,520 --verify full $V; done
    # Every variant and tile: both metadata variants, each kernel of the type, odd sizes.
    for dt in f16 bf16 tf32 s8 s4 e4m3; do
        run check_variants --dtype $dt --m 333 --n 257 --k 328 --kernel '*_om,*_sp' --verify full $V
    done
    # Other type combinations: f16 accumulate, f32/bf16 out, mixed signedness, satfinite, mixed fp8.
    run check_combos --dtype f16 --acc f16 --out f16 --m 1000 --n 1000 --k 1024 --verify full $V --kernel '*_om,*_sp'
    run check_combos --dtype f16 --out f32 --m 1000 --n 1000 --k 1024 --verify full $V
    run check_combos --dtype bf16 --out f32 --m 1000 --n 1000 --k 1024 --verify full $V
    run check_combos --dtype f16 --out bf16 --m 1000 --n 1000 --k 1024 --verify full $V
    run check_combos --a-type s8 --b-type u8 --m 1000 --n 1000 --k 1024 --verify full $V
    run check_combos --a-type u8 --b-type s8 --m 1000 --n 1000 --k 1024 --verify full $V
    run check_combos --a-type s4 --b-type u4 --m 1000 --n 1000 --k 1024 --verify full $V
    run check_combos --a-type u4 --b-type s4 --m 1000 --n 1000 --k 1024 --verify full $V
    run check_combos --dtype s8 --satfinite --m 1000 --n 1000 --k 1024 --verify full $V --kernel '*_om,*_sp'
    run check_combos --dtype u4 --satfinite --m 1000 --n 1000 --k 1024 --verify full $V
    run check_combos --a-type e4m3 --b-type e5m2 --m 1000 --n 1000 --k 1024 --verify full $V
    run check_combos --a-type e5m2 --b-type e4m3 --m 1000 --n 1000 --k 1024 --verify full $V
    # Epilogue: alpha/beta with C (float and integer), other distributions.
    run check_epilogue --dtype f16 --alpha 0.5 --beta 2 --m 1000 --n 999 --k 1024 --verify full $V
    run check_epilogue --dtype bf16 --out f32 --alpha -1.5 --beta 0.25 --m 1001 --n 1000 --k 1024 --verify full $V
    run check_epilogue --dtype s8 --alpha 3 --beta -2 --m 1000 --n 1001 --k 1024 --verify full $V
    run check_epilogue --dtype f16 --dist normal --m 1000 --n 1000 --k 4096 --verify full $V
    run check_epilogue --dtype e4m3 --dist normal --m 1000 --n 1000 --k 4096 --verify full $V
    # Large and standard shapes, every type (sampled verification).
    for dt in f16 bf16 tf32 s8 u8 s4 u4 e4m3 e5m2; do
        run check_large --dtype $dt --m 4096 --n 4096 --k 4096 --verify sampled $V
        run check_large --dtype $dt --m 8192 --n 2048 --k 28672 --verify sampled $V
    done
    run check_large --dtype f16 --m 4096 --n 4096 --k 4096 --verify sampled $V --kernel '*_sp'
    note "correctness phase: $((SECONDS - T0)) s, failures so far: $FAILS"
fi

if [ "$MODE" = all ] || [ "$MODE" = perf ]; then
    # ---- (d) ------------------------------------------------------------------------------
    T0=$SECONDS
    # SM clock, power and throttle reasons every 200 ms while timing (is the limit the clock?).
    nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
        --format=csv -lms 200 > "$OUT/clocks.csv" 2>&1 &
    CLOCKS_PID=$!
    for s in $STANDARD; do
        for dt in f16 bf16; do
            run perf --dtype $dt $(shape_args "$s") --verify sampled --warmup 5 --iterations 20 \
                --kernel "*_${dt}${dt}_f32_*_om"
        done
        run perf_sp --dtype f16 $(shape_args "$s") --verify sampled --warmup 5 --iterations 20 \
            --kernel 'sm80_f16f16_f32_256x128x64_s4_sp'
    done
    # f16 accumulation (not in the table): is the f32-accumulator loop slower than the f16 one?
    for s in 8192x8192x8192 8192x2048x28672; do
        run perf_acc16 --dtype f16 --acc f16 --out f16 $(shape_args "$s") --verify sampled --warmup 5 --iterations 20 \
            --kernel '*_f16f16_f16_*_om'
    done
    kill "$CLOCKS_PID" 2>/dev/null
    note "timing phase: $((SECONDS - T0)) s; SM clock while timing (MHz, median/min): $(awk -F', ' 'NR > 1 && $2 + 0 > 0 {print $2 + 0}' "$OUT/clocks.csv" | sort -n | awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)] "/" v[1]}')"

    # ---- (e) ------------------------------------------------------------------------------
    CUT=$B/bench-cutlass/cutlass_sm80_sparse
    if [ -x "$CUT" ]; then
        "$CUT" > "$OUT/cutlass.txt" 2>&1 || { FAILS=$((FAILS + 1)); note "FAIL: $CUT (see cutlass.txt)"; }
    else
        note "no CUTLASS peer carried ($CUT): bench/cutlass/build.sh builds it"
    fi
    SHAPES=$(echo $STANDARD | tr ' ' ',')
    (cd "$OUT" && OUT="$OUT" python3 "$OLDPWD/bench/baselines/peers.py" --shapes "$SHAPES" --dtypes f16,bf16) \
        > "$OUT/peers.txt" 2>&1 || note "peers.py failed (see peers.txt)"
fi

# ---- summary table ----------------------------------------------------------------------------
python3 - "$OUT" <<'EOF' | tee -a "$OUT/summary.txt"
import json, os, sys
out = sys.argv[1]
import glob
def records(name):
    rs = []
    for p in sorted(glob.glob(os.path.join(out, "json", name + "_*.jsonl"))):
        for line in open(p):
            try: rs.append(json.loads(line))
            except Exception: pass
    return rs
checks = [r for n in ("check_odd", "check_variants", "check_combos", "check_epilogue", "check_large")
          for r in records(n) if r.get("status") != "skipped"]
if checks:
    ok = [r for r in checks if r.get("status") == "verified"]
    kernels = sorted({r.get("kernel", "?") for r in ok})
    print(f"correctness: {len(ok)}/{len(checks)} runs verified, {len(kernels)} distinct kernels")
    for r in checks:
        if r.get("status") != "verified":
            print("  NOT VERIFIED:", r.get("status"), r.get("kernel"), r["problem"].get("label"), r.get("reason", "")[:160])
# f32 accumulation (what the CUTLASS column ran) in the main columns; the f16-accumulation
# kernels (perf_acc16_*, glob-matched by "perf") in their own column.
best = {}
for r in records("perf") + records("perf_sp"):
    if r.get("status") not in ("verified", "unverified") or "timing" not in r: continue
    p = r["problem"]
    acc16 = p.get("acc_type") == "f16"
    key = (f"{p['m']}x{p['n']}x{p['k']}", p["a_type"], "acc16" if acc16 else r["kernel"].endswith("_sp"))
    tf = r["timing"]["tflops"]
    if key not in best or tf > best[key][0]:
        best[key] = (tf, r["kernel"])
peers = {}
try:
    for row in json.load(open(os.path.join(out, "peers.json")))["rows"]:
        peers[(f"{row['m']}x{row['n']}x{row['k']}", row["dtype"])] = row
except Exception:
    pass
cutlass = {"4096x4096x4096": 653, "8192x8192x8192": 697, "16384x16384x16384": 613,
           "11008x4096x4096": 639, "28672x4096x8192": 656, "8192x2048x28672": 714}
measured = {}  # CUTLASS's best tile on uniform operands, this GPU, this call (cutlass.txt)
try:
    for line in open(os.path.join(out, "cutlass.txt")):
        f = line.split()
        if len(f) >= 5 and f[0] in cutlass and f[1] == "uniform":
            measured[f[0]] = max(float(x) for x in f[2:5])
except OSError:
    pass
print("TFLOP/s; CUTLASS = its best tile measured in this call (uniform operands, like spmma's), bar = PERF.md's figure")
print(f"{'shape':>18} {'type':>4} {'sm80 om':>8} {'best kernel (om, f32 acc)':>34} {'sm80 sp':>8} {'f16 acc':>7} {'CUTLASS':>7} {'bar':>4} {'cuSPARSELt':>10} {'dense':>6}")
for shape in ["4096x4096x4096", "8192x8192x8192", "16384x16384x16384", "11008x4096x4096", "28672x4096x8192", "8192x2048x28672"]:
    for dt in ("f16", "bf16"):
        om = best.get((shape, dt, False))
        sp = best.get((shape, dt, True))
        a16 = best.get((shape, dt, "acc16"))
        if not om and not sp: continue
        pr = peers.get((shape, dt), {})
        f = lambda v: f"{v:.0f}" if isinstance(v, (int, float)) else ""
        print(f"{shape:>18} {dt:>4} {f(om[0]) if om else '':>8} {om[1] if om else '':>34} {f(sp[0]) if sp else '':>8} {f(a16[0]) if a16 else '':>7} "
              f"{f(measured.get(shape)) if dt == 'f16' else '':>7} {cutlass[shape] if dt == 'f16' else '':>4} {f(pr.get('cusparselt')):>10} {f(pr.get('dense')):>6}")
EOF
note "failures: $FAILS"
exit $((FAILS > 0))
