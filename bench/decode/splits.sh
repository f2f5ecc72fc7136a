#!/usr/bin/env bash
# How many ranges a decode tile's k should be cut into (stream-K with fewer clusters than the
# SMs hold, SPMMA_SM90A_SK_SPLITS=s: every tile split into s ranges when the tiles are fewer than
# the clusters): on the GPU machine, from the repository root with the build laid out by
# bench/device/prepare.sh,
#   OUT=$OUT [SPLITS="1 2 4 99"] [SHAPES=...] [N=1,16,64,128] [KTYPES=f16,e4m3] bench/decode/splits.sh
# For every shape, type and s: the heuristic's kernel and each decode kernel of KERNELS by name,
# stream-K on (s = 1: whole tiles; 99: every cluster a range), L2 flushed before each launch; then
# the cusparselt and cublas plugins on the same problems. Table: bench/decode/splits_table.py.
set -u
cd "$(dirname "$0")/../.."
. bench/sm90a/steps.sh
SPLITS=${SPLITS:-1 2 4 99}
SHAPES=${SHAPES:-6144x4096 4096x4096 4096x14336 10240x8192 8192x8192 8192x28672 1280x8192 8192x1024 7168x8192 8192x3584}
N=${N:-1,16,64,128}
KTYPES=${KTYPES:-f16,e4m3}
MIN_TIME=${MIN_TIME:-0.03}
KERNELS=${KERNELS:-64x64x*,128x16x*_s12,128x32x*,128x64x*_c1x1_*,128x128x*_c2x1_*}
TYPES=("f16|--dtype f16|sm90a_f16f16_f32" "bf16|--dtype bf16|sm90a_bf16bf16_f32"
       "e4m3|--dtype e4m3|sm90a_e4m3e4m3_f32" "s8|--dtype s8|sm90a_s8s8_s32")
globs() { local prefix=$1 out="" g; IFS=',' read -ra gs <<< "$2"; for g in "${gs[@]}"; do out+="${out:+,}${prefix}_$g"; done; echo "$out"; }
has() { [[ ",$1," == *",$2,"* ]]; }

note "splits $(date -u +%FT%TZ): SPLITS=$SPLITS"
for t in "${TYPES[@]}"; do
    IFS='|' read -r name types prefix <<< "$t"
    has "$KTYPES" "$name" || continue
    for s in $SHAPES; do
        m=${s%x*} k=${s#*x}
        run "peers_${name}_$s" 120 --plugin cusparselt,cublas --flush-l2 --min-time "$MIN_TIME" --verify sampled \
            $types --m "$m" --n "$N" --k "$k" || true
        for sp in $SPLITS; do
            (export SPMMA_SM90A_STREAMK=on SPMMA_SM90A_SK_SPLITS=$sp
             run "s${sp}_${name}_$s" 120 --plugin sm90a --flush-l2 --min-time "$MIN_TIME" --verify sampled \
                 $types --m "$m" --n "$N" --k "$k"
             run "s${sp}_${name}_${s}_named" 120 --plugin sm90a --kernel "$(globs "$prefix" "$KERNELS")" --flush-l2 \
                 --min-time "$MIN_TIME" --verify sampled $types --m "$m" --n "$N" --k "$k") || true
        done
    done
done
note "done, $FAILS failed steps"
python3 bench/decode/splits_table.py "$OUT" | tee "$OUT/splits.txt"
(cd "$OUT" && tar czf records.tgz --exclude records.tgz ./*.jsonl ./*.log ./*.txt 2>/dev/null && rm -f ./*.jsonl ./*.log)
