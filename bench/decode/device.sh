#!/usr/bin/env bash
# The decode regime (a weight times 1-128 tokens, A streamed from DRAM) on one GPU in ONE device run
# (< 10 min), from the repository root with the build laid out by bench/device/prepare.sh:
#   OUT=$OUT STAGES="check kernels set" bench/decode/device.sh
# Stages (each optional, in this order):
#   check    every sm90a decode kernel (kernels/*_decode.inc) at odd sizes, full verification, with
#            the stream-K choice of the heuristic and with stream-K forced on;
#   check80  every sm80 decode kernel (kernel_tiles.hpp) by name and the sm80 heuristic's pick at
#            odd sizes, full verification (split-K at every m here: 9 and 33 tiles of 128 rows);
#   kernels  SHAPES x N x TYPES: the heuristic's pick, each decode kernel by name, and the
#            cusparselt and cublas plugins on the same operands, L2 flushed before each launch;
#   ab       an A/B of one knob (AB="VAR=a|VAR=b"): the heuristic's pick and each decode kernel on
#            SHAPES x N x KTYPES under A, then under B, then A and B again (ab_*.jsonl; each
#            record's command carries the knob);
#   flush    the L2 flush read against written (SPMMA_L2_FLUSH), every plugin, SHAPES x N x KTYPES;
#   set      configs/decode-shapes.toml on SET_PLUGINS (default sm90a,cusparselt,cublas), L2
#            flushed (SET_TYPES, default every type of the file, narrows it: e.g. SET_TYPES=f16,e4m3);
#   peers    PyTorch's dense cuBLAS and cuSPARSELt on the same layers (bench/baselines/peers.py
#            --decode, L2 flushed, types PEER_TYPES, default f16,e4m3) into peers.json;
#   ceiling  the DRAM read ceiling: spmma-bench-dram CEILING_REPS times (default 2) into dram.txt,
#            which bench/results/make_results.py sets beside the set's cells under 1.05x;
# then the tables (bench/decode/table.py $OUT, and bench/decode/ab_table.py for ab and flush),
# and every record and log in $OUT/records.tgz.
set -u
cd "$(dirname "$0")/../.."
. bench/sm90a/steps.sh
STAGES=${STAGES:-check kernels set}
MIN_TIME=${MIN_TIME:-0.05}
SHAPES=${SHAPES:-8192x28672 28672x4096 4096x4096}
N=${N:-1,16,32,64,128}
TYPES=("f16|--dtype f16|sm90a_f16f16_f32"
       "bf16|--dtype bf16|sm90a_bf16bf16_f32"
       "e4m3|--dtype e4m3|sm90a_e4m3e4m3_f32"
       "s8|--dtype s8|sm90a_s8s8_s32")
KTYPES=${KTYPES:-f16,e4m3}
SET_PLUGINS=${SET_PLUGINS:-sm90a,cusparselt,cublas}
DECODE_KERNELS=${DECODE_KERNELS:-"64x64x*,128x16x*,128x32x*,128x64x*,128x128x*_c2x1_*"}
globs() { local prefix=$1 out="" g; IFS=',' read -ra gs <<< "$2"; for g in "${gs[@]}"; do out+="${out:+,}${prefix}_$g"; done; echo "$out"; }
has() { [[ ",$1," == *",$2,"* ]]; }

note "decode $(date -u +%FT%TZ): STAGES=$STAGES"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv,noheader 2>&1 | tee -a "$OUT/summary.txt"

if [[ " $STAGES " == *" check "* ]]; then
    for t in "${TYPES[@]}"; do
        IFS='|' read -r name types prefix <<< "$t"
        for sk in auto on; do
            (if [ $sk = on ]; then export SPMMA_SM90A_STREAMK=on; fi
             run "check_${name}_$sk" 120 --plugin sm90a --warmup 1 --iterations 2 $types \
                 --kernel "$(globs "$prefix" "$DECODE_KERNELS")" --m 1111,4111 --n 1,8,17,33,64,100,128 --k 1000,4104 \
                 --verify full) || true
        done
    done
fi

if [[ " $STAGES " == *" check80 "* ]]; then
    for t in "f16|--dtype f16|sm80_f16f16_f32" "bf16|--dtype bf16|sm80_bf16bf16_f32" "e4m3|--dtype e4m3|sm89_e4m3e4m3_f32" \
             "s8|--dtype s8|sm80_s8s8_s32"; do
        IFS='|' read -r name types prefix <<< "$t"
        run "check80_${name}" 120 --plugin sm80 --warmup 1 --iterations 2 $types \
            --kernel "$(globs "$prefix" "128x16x*,128x32x*,128x64x*")" --m 1111,4111 --n 1,8,17,33,64 --k 1000,4104 \
            --verify full || true
        run "check80_${name}_pick" 120 --plugin sm80 --warmup 1 --iterations 2 $types --m 1111,4111 \
            --n 1,17,64,100,128 --k 1000,4104 --verify full || true
    done
fi

if [[ " $STAGES " == *" kernels "* ]]; then
    for t in "${TYPES[@]}"; do
        IFS='|' read -r name types prefix <<< "$t"
        has "$KTYPES" "$name" || continue
        for s in $SHAPES; do
            m=${s%x*} k=${s#*x}
            runj "kernels_${name}" 150 --plugin sm90a,cusparselt,cublas --flush-l2 --min-time "$MIN_TIME" --verify sampled \
                $types --m "$m" --n "$N" --k "$k" || true
            runj "kernels_${name}" 150 --plugin sm90a --kernel "$(globs "$prefix" "$DECODE_KERNELS")" --flush-l2 \
                --min-time "$MIN_TIME" --verify sampled $types --m "$m" --n "$N" --k "$k" || true
        done
    done
fi

# ab_pass <tag> <setting> <plugins> [kernel globs]: one pass over SHAPES x KTYPES under a setting,
# each step into a record file of its own (<tag>_<type>_<m>x<k>[_named].jsonl: a subshell's runj
# counter would not reach the next step, and --json rewrites its file).
ab_pass() {
    local tag=$1 setting=$2 plugins=$3 kglobs=${4:-} t name types prefix s m k
    for t in "${TYPES[@]}"; do
        IFS='|' read -r name types prefix <<< "$t"
        has "$KTYPES" "$name" || continue
        for s in $SHAPES; do
            m=${s%x*} k=${s#*x}
            (export "$setting"
             run "${tag}_${name}_${s}" 150 --plugin "$plugins" --flush-l2 --min-time "$MIN_TIME" --verify sampled $types \
                 --m "$m" --n "$N" --k "$k"
             if [ -n "$kglobs" ]; then
                 run "${tag}_${name}_${s}_named" 150 --plugin sm90a --kernel "$(globs "$prefix" "$kglobs")" --flush-l2 \
                     --min-time "$MIN_TIME" --verify sampled $types --m "$m" --n "$N" --k "$k"
             fi) || true
        done
    done
}

if [[ " $STAGES " == *" ab "* ]]; then
    IFS='|' read -r A_SET B_SET <<< "${AB:?AB=\"VAR=a|VAR=b\"}"
    for rep in 1 2; do
        ab_pass "ab${rep}a" "$A_SET" sm90a "$DECODE_KERNELS"
        ab_pass "ab${rep}b" "$B_SET" sm90a "$DECODE_KERNELS"
    done
fi

if [[ " $STAGES " == *" flush "* ]]; then
    for rep in 1 2; do
        ab_pass "flush${rep}w" SPMMA_L2_FLUSH=write sm90a,cusparselt,cublas
        ab_pass "flush${rep}r" SPMMA_L2_FLUSH=read sm90a,cusparselt,cublas
    done
fi

if [[ " $STAGES " == *" set "* ]]; then
    l=$(left)
    echo "+ spmma run configs/decode-shapes.toml" >> "$OUT/set.log"
    workload=configs/decode-shapes.toml
    if [ -n "${SET_TYPES:-}" ]; then  # the same file with its types narrowed
        workload=$OUT/decode-shapes.toml
        sed "s/^dtype = .*/dtype = [\"${SET_TYPES//,/\", \"}\"]/" configs/decode-shapes.toml > "$workload"
    fi
    timeout "$l" "$SPMMA" run "$workload" --plugin "$SET_PLUGINS" --flush-l2 --min-time "$MIN_TIME" \
        --no-progress --json "$OUT/set.jsonl" >> "$OUT/set.log" 2>&1 ||
        { FAILS=$((FAILS + 1)); note "FAIL: decode set"; }
    note "decode set done"
fi

if [[ " $STAGES " == *" peers "* ]]; then
    (cd "$OUT" && timeout "$(left)" python3 "$OLDPWD/bench/baselines/peers.py" --decode --dtypes "${PEER_TYPES:-f16,e4m3}" \
        --min-time "$MIN_TIME") > "$OUT/peers.log" 2>&1 || { FAILS=$((FAILS + 1)); note "FAIL: peers"; }
    note "peers done"
fi

if [[ " $STAGES " == *" ceiling "* ]]; then
    for rep in $(seq "${CEILING_REPS:-2}"); do
        timeout "$(left)" "$BUILD/bin/spmma-bench-dram" >> "$OUT/dram.txt" 2>&1 || { FAILS=$((FAILS + 1)); note "FAIL: spmma-bench-dram"; }
    done
    note "ceiling done: $(grep -c 'fit over' "$OUT/dram.txt" 2>/dev/null) fits"
fi

note "done, $FAILS failed steps"
python3 bench/decode/table.py "$OUT" | tee "$OUT/table.txt"
# The other subjects of the set (SET_PLUGINS beside sm90a and the peers), a table each.
for s in ${SET_PLUGINS//,/ }; do
    case $s in sm90a | cusparselt | cublas) ;; *) python3 bench/decode/table.py "$OUT" "$s" > "$OUT/table_$s.txt" ;; esac
done
if [[ " $STAGES " == *" ab "* || " $STAGES " == *" flush "* ]]; then python3 bench/decode/ab_table.py "$OUT" | tee "$OUT/ab.txt"; fi
# (only the patterns that match: without the peers stage there is no .json, and tar failing on
# the missing name left every record loose in $OUT)
(cd "$OUT" && shopt -s nullglob && files=(./*.jsonl ./*.json ./*.log ./*.txt) && tar czf records.tgz "${files[@]}" &&
    rm -f ./*.jsonl ./*.json ./*.log)
