#!/usr/bin/env bash
# `--devices all` on a host with two GPUs, in one device call, from the repository root with the
# build laid out by bench/device/prepare.sh (bench/device/pack.sh carries the two test plugins of
# tests/faults it needs):
#
#   bench/device/prepare.sh && OUT=$OUT bench/devices/two_gpu.sh
#
# In this order:
#   a. `spmma devices`: both GPUs with index, name and UUID;
#   b. the standard set (configs/llm-shapes.toml) on sm90a, cublas and cusparselt, sampled
#      verification: a cache-filling run over both GPUs (the vendor plugins search once per problem
#      and store the pick in one plan cache, SPMMA_CACHE_DIR, that both devices' workers share),
#      then `--devices 0` and `--devices all` alternately, REPEAT (2) times each, each run's wall
#      time from spmma's start to its end;
#   c. a fault on one GPU: sm90a beside fault_segv_run_device1 (a test plugin, correct on device
#      0, crashing in run on device 1) on six f16 problems with `--devices all`;
#   d. `spmma report` of the `--devices all` records into report.html;
#   e. a Slurm array task with two GPUs: Slurm is not installed on the GPU machine, so this stands
#      in for it: scripts/slurm/sweep.sbatch runs as each of two array tasks would under
#      `SPMMA_GPUS_PER_TASK=2 scripts/slurm/submit.sh` (SLURM_ARRAY_* set here,
#      CUDA_VISIBLE_DEVICES=0,1 as --gres=gpu:2 gives, `--devices all` among the options), one
#      after the other, then scripts/slurm/merge.sbatch (`spmma merge --workload`);
#   f. the summary (two_gpu_summary.py beside this script): wall times and the ratio all / 0 (the
#      bar is 0.6), verified records per device, the fault's outcome, the plan cache's use, and
#      every check, passed or failed.
# $OUT gets summary.txt, report.html and records.tgz (every record file and console, the plan
# cache, the manifest runs.tsv). Exit 0 when every check passed, 1 otherwise (the ratio's bar is
# a measurement, said in the summary, not a check). ALL_END (420 s) cuts every step's time limit
# to what is left and skips a step with none (a failed check), so the whole stays under 8 minutes.
#
# DRY_RUN=1 runs the same steps on the CPU with stand-ins (BUILD=build-no-cuda): the test plugin
# fault_good_two_devices (two devices, correct everywhere) in place of the GPU plugins, on the
# small f16 workload dry_run.toml beside this script; the plan cache is then not checked.
#   DRY_RUN=1 BUILD=build-no-cuda OUT=/tmp/two-gpu bench/devices/two_gpu.sh
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
BUILD=${BUILD:-build}
OUT=${OUT:-$PWD/two-gpu-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=${WORK:-$(mktemp -d "${TMPDIR:-/tmp}/spmma-two-gpu.XXXXXX")}
mkdir -p "$WORK"
[ -x "$BUILD/bin/spmma" ] || { echo "two_gpu.sh: $BUILD/bin/spmma not found (BUILD names the build folder)"; exit 2; }
SPMMA=$(realpath "$BUILD/bin/spmma")
FAULTS=$BUILD/tests/faults/plugins
for f in segv_run_device1 good_two_devices; do
    [ -d "$FAULTS/$f" ] || echo "two_gpu.sh: $FAULTS/$f missing (build target spmma_fault_$f; bench/device/pack.sh carries it)"
done
REPEAT=${REPEAT:-2}
T0=$SECONDS
ALL_END=${ALL_END:-420}
if [ "${DRY_RUN:-0}" = 1 ]; then
    PLUGINS=${PLUGINS:-fault_good_two_devices}
    WORKLOAD=${WORKLOAD:-bench/devices/dry_run.toml}
    FAULT_PLUGINS=${FAULT_PLUGINS:-fault_good_two_devices,fault_segv_run_device1}
    SLURM_WORKLOAD=${SLURM_WORKLOAD:-bench/devices/dry_run.toml}
    SLURM_PLUGINS=${SLURM_PLUGINS:-fault_good_two_devices}
    VENDOR=${VENDOR-}
    BASELINE=${BASELINE-}
    STAND_IN=(--plugin-dir "$FAULTS/good_two_devices")
else
    PLUGINS=${PLUGINS:-sm90a,cublas,cusparselt}
    WORKLOAD=${WORKLOAD:-configs/llm-shapes.toml}
    FAULT_PLUGINS=${FAULT_PLUGINS:-sm90a,fault_segv_run_device1}
    SLURM_WORKLOAD=${SLURM_WORKLOAD:-configs/llm-shapes.toml}
    SLURM_PLUGINS=${SLURM_PLUGINS:-sm90a}
    VENDOR=${VENDOR-cublas,cusparselt}
    BASELINE=${BASELINE-cublas}
    STAND_IN=()
fi
FAULT_DIRS=("${STAND_IN[@]}" --plugin-dir "$FAULTS/segv_run_device1")
# One plan cache for the whole script, empty at its start: the cache-filling run is the only
# one that may search.
export SPMMA_CACHE_DIR=$WORK/plan-cache
rm -rf "$SPMMA_CACHE_DIR"
: > "$WORK/runs.tsv"

say() { echo "== $* (t=$((SECONDS - T0)) s)" | tee -a "$WORK/steps.log"; }
left() { echo $((ALL_END - (SECONDS - T0))); }
# step KIND NAME DEVICES LIMIT FILE SUBJECT COMMAND...: runs COMMAND (its output in NAME.txt),
# its time limit cut to what is left, and adds the manifest line two_gpu_summary.py reads.
step() {
    local kind=$1 name=$2 devices=$3 limit=$4 file=$5 subject=$6 l rc wall after
    shift 6
    l=$(left)
    [ "$l" -lt "$limit" ] && limit=$l
    if [ "$limit" -lt 5 ]; then
        say "$name: skipped, out of time: $*"
        printf '%s\t%s\t%s\tskipped\t0\t%s\t%s\n' "$kind" "$name" "$devices" "$file" "$subject" >> "$WORK/runs.tsv"
        return
    fi
    echo "+ $*" > "$WORK/$name.cmd"
    read -r rc wall after < <(python3 bench/sweep/timed.py "$limit" "$WORK/$name.txt" "$@")
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$kind" "$name" "$devices" "$rc" "$wall" "$file" "$subject" >> "$WORK/runs.tsv"
    say "$name: exit $rc, wall $wall s (its end $after s after its last line): $*"
    grep -E "verified,|crashed|not found|error:" "$WORK/$name.txt" | head -4 | tee -a "$WORK/steps.log"
}

say "two-GPU run: $BUILD, plugins $PLUGINS, work folder $WORK"
# a. The devices the plugins see.
step devices devices - 60 devices.txt "" "$SPMMA" devices "${STAND_IN[@]}"
cat "$WORK/devices.txt"

# b. The standard set: the cache-filling run on both GPUs, then --devices 0 / all alternately.
S=("$SPMMA" run "$WORKLOAD" --plugin "$PLUGINS" --no-progress "${STAND_IN[@]}")
step fill fill all 240 fill.jsonl "" "${S[@]}" --devices all --json "$WORK/fill.jsonl"
for rep in $(seq "$REPEAT"); do
    step standard "d0-$rep" 0 120 "d0-$rep.jsonl" "" "${S[@]}" --devices 0 --json "$WORK/d0-$rep.jsonl"
    step standard "all-$rep" all 120 "all-$rep.jsonl" "" "${S[@]}" --devices all --json "$WORK/all-$rep.jsonl"
done

# c. A fault on device 1 only: six problems, the fault plugin computes on the host (seconds).
step fault fault all 120 fault.jsonl "${FAULT_PLUGINS##*,}" "$SPMMA" gemm --m 256,384,512,640,768,896 --n 256 --k 256 --dtype f16 \
    --verify full --warmup 1 --iterations 2 --no-progress --plugin "$FAULT_PLUGINS" "${FAULT_DIRS[@]}" --devices all --json "$WORK/fault.jsonl"

# d. The HTML report of the --devices all runs, pooled into one (two files alone would be a
# comparison of one run against the other).
all_files=()
for rep in $(seq "$REPEAT"); do [ -s "$WORK/all-$rep.jsonl" ] && all_files+=("$WORK/all-$rep.jsonl"); done
POOL=()
[ "${#all_files[@]}" -gt 1 ] && POOL=(--pool)
step report report all 60 "$OUT/report.html" "" "$SPMMA" report "${all_files[@]}" "${POOL[@]}" -o "$OUT/report.html" \
    --title "spmma --devices all on two GPUs" ${BASELINE:+--baseline "$BASELINE"}

# e. Stands in for a real Slurm (none on the GPU machine): each task of a two-task array as
# sweep.sbatch runs it under `SPMMA_GPUS_PER_TASK=2 scripts/slurm/submit.sh WORKLOAD DIR 2
# --plugin ... --devices all`, with the variables Slurm would set, then the merge job.
mkdir -p "$WORK/slurm"
for task in 0 1; do
    step slurm-task "slurm-task-$task" all 120 "slurm/shard-$task.jsonl" "" env SPMMA="$SPMMA" SPMMA_GPUS_PER_TASK=2 CUDA_VISIBLE_DEVICES=0,1 \
        SLURM_ARRAY_JOB_ID=$$ SLURM_ARRAY_TASK_ID=$task SLURM_ARRAY_TASK_COUNT=2 \
        SLURM_ARRAY_TASK_MIN=0 SLURM_ARRAY_TASK_MAX=1 SLURM_ARRAY_TASK_STEP=1 \
        bash scripts/slurm/sweep.sbatch "$SLURM_WORKLOAD" "$WORK/slurm" --plugin "$SLURM_PLUGINS" --devices all "${STAND_IN[@]}"
done
step slurm-merge slurm-merge all 60 slurm/merged.jsonl "" env SPMMA="$SPMMA" bash scripts/slurm/merge.sbatch "$SLURM_WORKLOAD" "$WORK/slurm" 2

# f. The checks and the table.
python3 bench/devices/two_gpu_summary.py "$WORK" --vendor "$VENDOR" > "$OUT/summary.txt" 2>&1
status=$?
say "summary (exit $status)"
cat "$OUT/summary.txt"
tar -czf "$OUT/records.tgz" -C "$WORK" . || { echo "two_gpu.sh: cannot write $OUT/records.tgz"; status=1; }
ls -l "$OUT"
exit $((status != 0))
