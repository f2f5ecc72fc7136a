#!/usr/bin/env bash
# Uniform data against a realistic weight, on one GPU in ONE device run (< 2 min on an H100), from
# the repository root with the build laid out by bench/device/prepare.sh:
#   OUT=$OUT bench/weights/device.sh
# For each layer of SIZES (m x k) and each type of TYPES, at the token counts N, on PLUGINS:
#   uniform  A drawn from the seed (spmma's uniform distribution), pruned 2:4 as always;
#   weight   A read from a .safetensors file that bench/weights/make_layer.py writes here first: a
#            normal weight with the spread of trained weights (std STD), pruned 2:4 (e4m3: divided by
#            its per-row scale, as an FP8 checkpoint holds it, and rounded to e4m3 by spmma);
# B drawn from the same seed in both. Then the table (bench/weights/table.py $OUT): TFLOP/s, SM
# clock and power of each pair side by side, and every record and log in $OUT/records.tgz.
# Small sizes on the cpu plugin (what the tests of this script run):
#   BUILD=build-no-cuda SIZES=64x256 N=4,8 PLUGINS=cpu MIN_TIME=0 OUT=/tmp/w bench/weights/device.sh
set -u
cd "$(dirname "$0")/../.."
ALL_END=${ALL_END:-110}
. bench/sm90a/steps.sh
SIZES=${SIZES:-8192x28672}
N=${N:-16,4096}
TYPES=${TYPES:-f16 e4m3}
PLUGINS=${PLUGINS:-sm90a,cusparselt,cublas}
STD=${STD:-0.02}
MIN_TIME=${MIN_TIME:-0.5}   # each timed run long enough for the power readings to settle
SEED=${SEED:-42}
FLUSH=${FLUSH:---flush-l2}

note "weights $(date -u +%FT%TZ): SIZES=$SIZES N=$N TYPES=$TYPES PLUGINS=$PLUGINS STD=$STD MIN_TIME=$MIN_TIME"
if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | tee -a "$OUT/summary.txt"
fi
[ "$PLUGINS" = cpu ] && FLUSH=""

for s in $SIZES; do
    m=${s%x*} k=${s#*x}
    file="$OUT/layer_${m}x${k}.safetensors"
    if ! python3 bench/weights/make_layer.py "$file" "$m" "$k" --std "$STD" >> "$OUT/make_layer.log" 2>&1; then
        FAILS=$((FAILS + 1)); note "FAIL: make_layer.py $m x $k (make_layer.log)"; continue
    fi
    note "wrote $file"
    for t in $TYPES; do
        common=(--plugin "$PLUGINS" $FLUSH --min-time "$MIN_TIME" --verify sampled --seed "$SEED" --n "$N" --dtype "$t")
        run "uniform_${t}_${s}" 60 "${common[@]}" --m "$m" --k "$k" || true
        run "weight_${t}_${s}" 60 "${common[@]}" --a "$file:$t.weight" || true
    done
    rm -f "$file"  # a GB on disk for the big layer: the records keep its hash
done

note "done, $FAILS failed steps"
python3 bench/weights/table.py "$OUT" > "$OUT/table.txt"
TABLE=$?  # 1: a record that did not verify (listed under the table)
cat "$OUT/table.txt"
(cd "$OUT" && tar czf records.tgz --exclude records.tgz ./*.jsonl ./*.log 2>/dev/null && rm -f ./*.jsonl ./*.log)
[ "$FAILS" -eq 0 ] && [ "$TABLE" -eq 0 ]
