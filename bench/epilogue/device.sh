#!/usr/bin/env bash
# The serving op against the plain GEMM of the same types, on one GPU in ONE device run (~5 min on
# an H100), from the repository root with the build laid out by bench/device/prepare.sh:
#   OUT=$OUT bench/epilogue/device.sh
# For each shape, on PLUGINS, three runs back to back (their order rotating from shape to shape,
# so a clock drift favours none): `spmma gemm --op scaled-mm` (e4m3 x e4m3 -> bf16, an f32 scale
# per row and per column, a bf16 bias per row), the same with a row scale and the bias only (a
# per-channel weight scale and a per-tensor activation scale folded into alpha: the form
# cuSPARSELt's alpha vector and bias express), and the plain `--dtype e4m3 --out bf16`; the
# standard set (SET_SHAPES, m x n x k) with at least MIN_TIME_SET s of timed launches, the decode
# layers (DECODE_LAYERS, m x k, at DECODE_N tokens) with L2 flushed and MIN_TIME_DECODE s. Then
# bench/epilogue/table.py $OUT: each shape's plain and epilogue times per plugin and each epilogue /
# plain; a plugin that does not run an epilogue shows its reason. Records and logs in $OUT/records.tgz.
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
ROWSCALED=(--dtype e4m3 --out bf16 --row-scale random --bias row)
i=0
one() {  # one KIND NAME ARGS...
    local kind=$1 name=$2; shift 2
    case $kind in
        plain) runj "plain_$name" 120 "${PLAIN[@]}" "$@" ;;
        scaled) runj "scaled_$name" 120 "${SCALED[@]}" "$@" ;;
        rowscaled) runj "rowscaled_$name" 120 "${ROWSCALED[@]}" "$@" ;;
    esac
}
pair() {  # pair NAME ARGS...: the three runs of one shape, in rotating order
    local kinds=(plain scaled rowscaled) j
    for j in 0 1 2; do one "${kinds[$(((i + j) % 3))]}" "$@"; done
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
