#!/usr/bin/env bash
# Two builds of the sm90a plugin against each other on decode problems, in one device call, from
# the repository root with the build laid out by bench/device/prepare.sh (the new build) and the
# other build's plugin file carried beside it:
#   OUT=$OUT OLD=.deploy/old/spmma-sm90a.so [CELLS=...] [SPLITS="1 2 4"] [ROUNDS=2] bench/decode/ab_build.sh
# CELLS: TYPE:MxNxK:KERNEL words (KERNEL the kernel's name after its type prefix, such as
# 128x16x128_c1x1_s12, or "auto" for the heuristic's pick). For every round, build (new, then
# old: the plugin file in the build's plugin folder swapped) and split count s
# (SPMMA_SM90A_STREAMK=on SPMMA_SM90A_SK_SPLITS=s; s = 1 whole tiles; "auto" the plan of the
# build's own heuristic), each cell's kernel on its problem, L2 flushed before each launch,
# sampled verification. $OUT/ab_table.txt: each cell's median per build and s (the mean of the
# rounds) and new - old in µs; $OUT/ab_records.tgz every record and log. The new plugin is put
# back at the end.
set -u
cd "$(dirname "$0")/../.."
. bench/sm90a/steps.sh
OLD=${OLD:?OLD names the spmma-sm90a.so of the other build}
SPLITS=${SPLITS:-1 2 4}
ROUNDS=${ROUNDS:-2}
MIN_TIME=${MIN_TIME:-0.03}
CELLS=${CELLS:-"e4m3:4096x16x4096:128x16x128_c1x1_s12 e4m3:1280x16x8192:128x16x128_c1x1_s12 f16:4096x16x4096:128x16x64_c1x1_s12 f16:1280x16x8192:128x16x64_c1x1_s12 e4m3:4096x64x4096:128x64x128_c1x1_s10 f16:1280x64x8192:auto"}
PLUGIN=$BUILD/lib/spmma/plugins/spmma-sm90a.so
cp "$PLUGIN" "$OUT/new-sm90a.so.keep" || exit 2
prefix() { case $1 in f16) echo sm90a_f16f16_f32 ;; bf16) echo sm90a_bf16bf16_f32 ;; e4m3) echo sm90a_e4m3e4m3_f32 ;; s8) echo sm90a_s8s8_s32 ;; esac; }
# The forced split counts, then the heuristic's own plan once ("auto" in SPLITS or not).
PASSES="${SPLITS//auto/} auto"
note "ab_build $(date -u +%FT%TZ): OLD=$OLD SPLITS=$SPLITS ROUNDS=$ROUNDS"
for round in $(seq "$ROUNDS"); do
    for build in new old; do
        if [ $build = old ]; then cp "$OLD" "$PLUGIN"; else cp "$OUT/new-sm90a.so.keep" "$PLUGIN"; fi
        for sp in $PASSES; do
            for cell in $CELLS; do
                IFS=: read -r type shape kernel <<< "$cell"
                IFS=x read -r m n k <<< "$shape"
                args=(--plugin sm90a --dtype "$type" --m "$m" --n "$n" --k "$k" --flush-l2 --min-time "$MIN_TIME" --verify sampled)
                [ "$kernel" != auto ] && args+=(--kernel "$(prefix "$type")_$kernel")
                if [ "$sp" = auto ]; then
                    run "ab_${build}_${round}_auto_${type}_${shape}" 60 "${args[@]}" || true
                else
                    (export SPMMA_SM90A_STREAMK=on SPMMA_SM90A_SK_SPLITS=$sp
                     run "ab_${build}_${round}_s${sp}_${type}_${shape}" 60 "${args[@]}") || true
                fi
            done
        done
    done
done
cp "$OUT/new-sm90a.so.keep" "$PLUGIN" && rm -f "$OUT/new-sm90a.so.keep"
python3 - "$OUT" > "$OUT/ab_table.txt" <<'EOF'
import glob, json, os, sys
from collections import defaultdict
t = defaultdict(list)
bad = 0
for f in glob.glob(os.path.join(sys.argv[1], "ab_*.jsonl")):
    _, build, _, sp, typ, shape = os.path.basename(f)[:-6].split("_")
    for line in open(f):
        r = json.loads(line)
        if r["status"] != "verified":
            bad += 1
            continue
        tile = r["kernel"].split("_")[3] if r["kernel_request"] else "auto"
        t[(typ, shape, tile, sp, build)].append(r["timing"]["median_ms"] * 1e3)
print(f"{'type':5} {'shape':16} {'tile':8} {'s':4} {'new us':>7} {'old us':>7} {'new-old':>7}")
for key in sorted({k[:4] for k in t}):
    new, old = t.get(key + ("new",)), t.get(key + ("old",))
    if not new or not old:
        continue
    a, b = sum(new) / len(new), sum(old) / len(old)
    print(f"{key[0]:5} {key[1]:16} {key[2]:8} {key[3]:4} {a:7.2f} {b:7.2f} {a - b:+7.2f}")
print(f"records not verified: {bad}")
EOF
cat "$OUT/ab_table.txt"
(cd "$OUT" && tar -czf ab_records.tgz ab_*.jsonl ab_*.log && rm -f ab_*.jsonl ab_*.log) || FAILS=$((FAILS + 1))
exit $((FAILS > 0))
