#!/usr/bin/env bash
# The serving op against the plain GEMM of the same types, on one GPU in ONE device run (~3 min on
# an H100), from the repository root with the build laid out by bench/device/prepare.sh:
#   OUT=$OUT bench/epilogue/device.sh
# For each shape: `spmma gemm --op scaled-mm` (e4m3 x e4m3 -> bf16, an f32 scale per row and per
# column, a bf16 bias per row) and the plain `--dtype e4m3 --out bf16` on PLUGINS, the two back to
# back (their order alternating from shape to shape, so a clock drift does not favour one); the
# standard set (SET_SHAPES, m x n x k) with at least MIN_TIME_SET s of timed launches, the decode
# layers (DECODE_LAYERS, m x k, at DECODE_N tokens) with L2 flushed and MIN_TIME_DECODE s. Then
# bench/epilogue/table.py $OUT: each shape's plain and scaled time per plugin and scaled / plain;
# a plugin that does not run the scaled op shows its reason. Records and logs in $OUT/records.tgz.
# Small sizes on the cpu plugin (what the tests of this script run):
#   BUILD=build-no-cuda SET_SHAPES=64x32x128 DECODE_LAYERS=96x256 DECODE_N=1,8 PLUGINS=cpu \
#     MIN_TIME_SET=0 MIN_TIME_DECODE=0 OUT=/tmp/e bench/epilogue/device.sh
set -u
cd "$(dirname "$0")/../.."
ALL_END=${ALL_END:-400}
. bench/sm90a/steps.sh
SET_SHAPES=${SET_SHAPES:-4096x4096x4096 8192x8192x8192 16384x16384x16384 11008x4096x4096 28672x4096x8192 8192x2048x28672}
# Llama-3-8B and -70B at tensor-parallel 1 (configs/decode-shapes.toml): qkv, o, gate+up, down.
DECODE_LAYERS=${DECODE_LAYERS:-6144x4096 4096x4096 28672x4096 4096x14336 10240x8192 8192x8192 57344x8192 8192x28672}
DECODE_N=${DECODE_N:-1,16,128}
PLUGINS=${PLUGINS:-sm90a,cusparselt,cublas}
MIN_TIME_SET=${MIN_TIME_SET:-0.2}
MIN_TIME_DECODE=${MIN_TIME_DECODE:-0.1}
FLUSH=${FLUSH:---flush-l2}
[ "$PLUGINS" = cpu ] && FLUSH=""

note "epilogue $(date -u +%FT%TZ): PLUGINS=$PLUGINS SET_SHAPES=$SET_SHAPES DECODE_LAYERS=$DECODE_LAYERS DECODE_N=$DECODE_N"
if command -v nvidia-smi > /dev/null; then
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,power.limit --format=csv,noheader 2>&1 | tee -a "$OUT/summary.txt"
fi

PLAIN=(--dtype e4m3 --out bf16)
SCALED=(--op scaled-mm)
i=0
pair() {  # pair NAME ARGS...: the plain and the scaled run of one shape, in alternating order
    local name=$1; shift
    if [ $((i % 2)) = 0 ]; then
        runj "plain_$name" 120 "${PLAIN[@]}" "$@"; runj "scaled_$name" 120 "${SCALED[@]}" "$@"
    else
        runj "scaled_$name" 120 "${SCALED[@]}" "$@"; runj "plain_$name" 120 "${PLAIN[@]}" "$@"
    fi
    i=$((i + 1))
}
for s in $SET_SHAPES; do
    IFS=x read -r m n k <<< "$s"
    pair "set_$s" --plugin "$PLUGINS" --verify sampled --min-time "$MIN_TIME_SET" --m "$m" --n "$n" --k "$k"
done
for l in $DECODE_LAYERS; do
    m=${l%x*} k=${l#*x}
    pair "decode_$l" --plugin "$PLUGINS" --verify sampled $FLUSH --min-time "$MIN_TIME_DECODE" --m "$m" --n "$DECODE_N" --k "$k"
done

note "done, $FAILS failed steps"
python3 bench/epilogue/table.py "$OUT" > "$OUT/table.txt"
TABLE=$?  # 1: a record that did not verify (listed under the table)
cat "$OUT/table.txt"
(cd "$OUT" && tar czf records.tgz --exclude records.tgz ./*.jsonl ./*.log 2>/dev/null && rm -f ./*.jsonl ./*.log)
[ "$FAILS" -eq 0 ] && [ "$TABLE" -eq 0 ]
