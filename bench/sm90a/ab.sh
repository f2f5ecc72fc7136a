#!/usr/bin/env bash
# A/B of one sm90a plugin knob in ONE run (< 10 min), from the repository root with the
# build copied there as for bench/sm90a/device.sh:
#   A="SPMMA_SM90A_EPILOGUE=direct" B="SPMMA_SM90A_EPILOGUE=tma" OUT=$OUT bench/sm90a/ab.sh
#   A="dir:.deploy/old" B="dir:build/lib/spmma/plugins" ...   (two builds of the plugin: the
#   first folder holds the older spmma-sm90a.so; the cuSPARSELt plugin comes from B's folder)
#   A=- B="SPMMA_REP=1" KERNELS=...   (no A side: one pass, e.g. to compare KERNELS with each other)
#   (a) unless CHECK=0, correctness under B: every sm90a kernel of each type family at m 1000/1111, n 777/1000/1024, k 1000
#       (rows of D 8-, 16- and 32-byte aligned: direct and TMA stores), full verification; 4096^3 full for
#       the heuristic's kernel of the four main types; configs/quick.toml on the sm90a plugin;
#   (b) SHAPES x {f16, bf16, e4m3, s8}: KERNELS (suffix globs after the type prefix) under A, then
#       under B with the cuSPARSELt plugin on the same operands (perf_*.jsonl; each record's
#       command carries the knob, so ab_table.py tells A from B);
#   (c) the table: bench/sm90a/ab_table.py OUT.
set -u
cd "$(dirname "$0")/../.."
. bench/sm90a/steps.sh
A=${A:?A=\"VAR=value\" (the baseline setting)}
B=${B:?B=\"VAR=value\" (the candidate setting)}
KERNELS=${KERNELS:-128x256x*_c2x1_*,256x192x*_c2x1_*}
SHAPES=${SHAPES:-4096x4096x4096 11008x4096x4096 8192x8192x8192}
TYPES=("f16|--dtype f16 --acc f32 --out f16|sm90a_f16f16_f32"
       "bf16|--dtype bf16 --acc f32 --out bf16|sm90a_bf16bf16_f32"
       "e4m3|--a-type e4m3 --b-type e4m3 --acc f32 --out bf16|sm90a_e4m3e4m3_f32"
       "s8|--a-type s8 --b-type s8 --acc s32 --out s32|sm90a_s8s8_s32")
FAMILIES=("f16_f32|--dtype f16 --acc f32 --out f16|sm90a_f16f16_f32"
          "f16_f16|--dtype f16 --acc f16 --out f16|sm90a_f16f16_f16"
          "f16_f32out|--dtype f16 --acc f32 --out f32|sm90a_f16f16_f32"
          "bf16|--dtype bf16 --acc f32 --out bf16|sm90a_bf16bf16_f32"
          "tf32|--dtype tf32 --acc f32 --out f32|sm90a_tf32tf32_f32"
          "e4m3_bf16|--a-type e4m3 --b-type e4m3 --acc f32 --out bf16|sm90a_e4m3e4m3_f32"
          "e4m3_f16acc|--a-type e4m3 --b-type e4m3 --acc f16 --out f16|sm90a_e4m3e4m3_f16"
          "e5m2e4m3|--a-type e5m2 --b-type e4m3 --acc f32 --out f32|sm90a_e5m2e4m3_f32"
          "s8s8|--a-type s8 --b-type s8 --acc s32 --out s32|sm90a_s8s8_s32"
          "u8s8_sat|--a-type u8 --b-type s8 --acc s32 --out s32 --satfinite|sm90a_u8s8_s32sat")
# A setting: "VAR=value" (exported for the step) or "dir:PATH" (--plugin-dir PATH).
setting_env() { [[ $1 == dir:* ]] && echo "SPMMA_AB_SIDE=${1#dir:}" || echo "$1"; }
setting_args() { [[ $1 == dir:* ]] && echo "--plugin-dir ${1#dir:}"; }
globs() { local prefix=$1 out="" g; IFS=',' read -ra gs <<< "$2"; for g in "${gs[@]}"; do out+="${out:+,}${prefix}_$g"; done; echo "$out"; }

note "sm90a A/B $(date -u +%FT%TZ): A: $A  B: $B  KERNELS=$KERNELS"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv,noheader 2>&1 | tee -a "$OUT/summary.txt"

# NOTES: each step runs in a subshell that exports the setting, so the A and B runs share this
# shell's clock (steps.sh's time budget) and nothing else.
# ---- (a) ----------------------------------------------------------------------------------------
if [ "${CHECK:-1}" = 0 ]; then
    note "correctness skipped (CHECK=0)"
else
    note "correctness under B"
    for f in "${FAMILIES[@]}"; do
        IFS='|' read -r name types prefix <<< "$f"
        (export $(setting_env "$B"); run "correct_$name" 60 $(setting_args "$B") --plugin sm90a --warmup 1 --iterations 2 \
            $types --kernel "${prefix}_*" --m 1000,1111 --n 777,1000,1024 --k 1000 --verify full \
            ) || FAILS=$((FAILS + 1))
    done
    for t in "${TYPES[@]}"; do
        IFS='|' read -r name types prefix <<< "$t"
        (export $(setting_env "$B"); run "correct_big_$name" 60 $(setting_args "$B") --plugin sm90a --warmup 1 \
            --iterations 2 $types --m 4096 --n 4096 --k 4096 --verify full) || FAILS=$((FAILS + 1))
    done
    env $(setting_env "$B") timeout 90 "$SPMMA" run configs/quick.toml $(setting_args "$B") --plugin sm90a --no-progress --json "$OUT/correct_quick.jsonl" \
        > "$OUT/correct_quick.log" 2>&1 || { FAILS=$((FAILS + 1)); note "FAIL: quick.toml under B (exit $?)"; }
fi

# ---- (b) ----------------------------------------------------------------------------------------
note "A/B at $SHAPES"
# SM clock, power and throttle reasons every 200 ms while timing (clocks.csv; summarised below).
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv,nounits -lms 200 > "$OUT/clocks.csv" 2>&1 &
CLOCKS_PID=$!
for s in $SHAPES; do
    IFS=x read -r m n k <<< "$s"
    for t in "${TYPES[@]}"; do
        IFS='|' read -r name types prefix <<< "$t"
        P="$types --m $m --n $n --k $k --warmup 5 --iterations 20 --verify sampled"
        N_CALL=$((N_CALL + 1))
        [ "$A" = - ] || (export $(setting_env "$A"); run "perf_${N_CALL}a" 90 $(setting_args "$A") --plugin sm90a $P \
            --kernel "$(globs "$prefix" "$KERNELS")") || FAILS=$((FAILS + 1))
        (export $(setting_env "$B"); run "perf_${N_CALL}b" 90 $(setting_args "$B") --plugin sm90a,cusparselt $P \
            --kernel "$(globs "$prefix" "$KERNELS"),cusparselt_*") || FAILS=$((FAILS + 1))
    done
done

kill "$CLOCKS_PID" 2>/dev/null
med_min() { sort -n | awk '{v[NR] = $1} END {if (NR) printf "%s/%s/%s", v[int((NR + 1) / 2)], v[1], v[NR]}'; }
# NOTES: only samples under load (above 300 W) count: between runs the CPU generates and checks
# operands while the GPU idles at low clocks, which would swamp the median.
col() { awk -F', *' -v c="$1" 'NR > 1 && $3 + 0 > 300 {print $c + 0}' "$OUT/clocks.csv"; }
note "under load (> 300 W; median/min/max): SM clock $(col 2 | med_min) MHz, power $(col 3 | med_min) W, $(col 2 | wc -l) samples of 200 ms; throttle reasons: $(awk -F', *' 'NR > 1 && $3 + 0 > 300 {print $5}' "$OUT/clocks.csv" | sort | uniq -c | tr -s ' \n' ' ')"

# ---- (c) ----------------------------------------------------------------------------------------
note "done: $FAILS failed step(s)"
python3 bench/sm90a/ab_table.py "$OUT" "$A" "$B" | tee "$OUT/table.txt"
