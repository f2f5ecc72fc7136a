#!/usr/bin/env bash
# What the partials of a split tile cost: each layer M x K run with every tile cut into s k-ranges
# (SPMMA_SM90A_SK_SPLITS=s), beside its whole-tile twin s*M x K/s on the same kernel, which deals
# the same A bytes and the same k-tiles a CTA to as many CTAs, without partials. The difference of
# the two times is what the ranges' exchange (partials, flags, the owner's wait and adds) costs. On
# the GPU machine, from the repository root with the build laid out by bench/device/prepare.sh,
#   OUT=$OUT [CELLS="6144x4096:2 ..."] [N=1,16,32] [KTYPES=f16,e4m3] bench/decode/twins.sh
# CELLS: MxK:s words. Both launches of a cell run the decode tile that covers n (kernel_for:
# 128x16 up to 16 tokens, 128x32 up to 32, else 128x64). L2 flushed before each launch. Table:
# bench/decode/twins_table.py.
set -u
cd "$(dirname "$0")/../.."
. bench/sm90a/steps.sh
CELLS=${CELLS:-6144x4096:2 7168x8192:2 8192x3584:2 4096x4096:4 4096x14336:4 1280x8192:8}
N=${N:-1,16,32}
KTYPES=${KTYPES:-f16,e4m3}
MIN_TIME=${MIN_TIME:-0.05}
TYPES=("f16|--dtype f16|sm90a_f16f16_f32|64" "bf16|--dtype bf16|sm90a_bf16bf16_f32|64"
       "e4m3|--dtype e4m3|sm90a_e4m3e4m3_f32|128" "s8|--dtype s8|sm90a_s8s8_s32|128")
has() { [[ ",$1," == *",$2,"* ]]; }
kernel_for() {  # the decode tile that covers n tokens: 128x16 up to 16, 128x32 up to 32, else 128x64
    local n=$1 bk=$2 prefix=$3
    if [ "$n" -le 16 ]; then echo "${prefix}_128x16x${bk}_c1x1_s12"
    elif [ "$n" -le 32 ]; then echo "${prefix}_128x32x${bk}_c1x1_s12"
    else echo "${prefix}_128x64x${bk}_c1x1_s10"; fi
}

note "twins $(date -u +%FT%TZ): CELLS=$CELLS N=$N"
for t in "${TYPES[@]}"; do
    IFS='|' read -r name types prefix bk <<< "$t"
    has "$KTYPES" "$name" || continue
    for cell in $CELLS; do
        shape=${cell%:*} s=${cell#*:}
        m=${shape%x*} k=${shape#*x}
        IFS=',' read -ra ns <<< "$N"
        for n in "${ns[@]}"; do
            kn=$(kernel_for "$n" "$bk" "$prefix")
            (export SPMMA_SM90A_STREAMK=on SPMMA_SM90A_SK_SPLITS=$s
             run "split_${name}_${shape}_s${s}_n$n" 120 --plugin sm90a --kernel "$kn" --flush-l2 --min-time "$MIN_TIME" \
                 --verify sampled $types --m "$m" --n "$n" --k "$k") || true
            (export SPMMA_SM90A_STREAMK=on SPMMA_SM90A_SK_SPLITS=1
             run "twin_${name}_${shape}_s${s}_n$n" 120 --plugin sm90a --kernel "$kn" --flush-l2 --min-time "$MIN_TIME" \
                 --verify sampled $types --m $((m * s)) --n "$n" --k $((k / s))) || true
        done
    done
done
note "done, $FAILS failed steps"
python3 bench/decode/twins_table.py "$OUT" | tee "$OUT/twins.txt"
(cd "$OUT" && tar czf records.tgz --exclude records.tgz ./*.jsonl ./*.log ./*.txt 2>/dev/null && rm -f ./*.jsonl ./*.log)
