#!/usr/bin/env bash
# Submits a sharded spmma sweep to Slurm: a job array of TASKS tasks (sweep.sbatch), each running
# one shard of WORKLOAD into OUTDIR/shard-I.jsonl, and a merge job (merge.sbatch) that starts when
# every task has succeeded and writes OUTDIR/merged.jsonl, failing if a job is missing.
#
#   scripts/slurm/submit.sh WORKLOAD OUTDIR [TASKS] [spmma run options...]
#   scripts/slurm/submit.sh configs/llm-shapes.toml /scratch/nightly/2026-11-24 16 --plugin sm90a,cublas
#
# TASKS defaults to 8; tasks beyond the workload's job count get no jobs and succeed at once.
# Prints the two job ids (array, merge). Submitting again into the same OUTDIR resumes: the records
# there are kept and only the missing runs are done (with the same TASKS; another count is refused,
# as the shards would overlap).
#
# Environment:
#   SPMMA                 the spmma program (default: spmma on PATH, else build/bin/spmma of this
#                         checkout); passed to the jobs as an absolute path
#   SPMMA_GPUS_PER_TASK   GPUs for each array task (--gres=gpu:N; with more than one, add
#                         --devices all to the spmma options); unset: no GPU is asked for, for
#                         the cpu plugin or a cluster without GRES
#   SPMMA_MERGE_AFTER     afterok (default): merge only when every task succeeded (a failed
#                         verification fails its task, and the merge job is then cancelled);
#                         afterany: merge whatever the tasks' exit codes (still failing if a
#                         job has no record)
#   SPMMA_SBATCH_OPTIONS  more sbatch options for both jobs, split at spaces, e.g.
#                         "--partition=gpu --time=02:00:00 --cpus-per-task=16" (the OpenMP
#                         reference that verifies each run uses the task's CPUs)
#   SBATCH_*              sbatch's own variables (SBATCH_PARTITION, SBATCH_TIMELIMIT, ...) apply too
#   SPMMA_PLUGIN_PATH     plugin folders, passed on to the jobs as every variable is (--export=ALL)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [ $# -lt 2 ]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
[ -f "$1" ] || { echo "submit.sh: $1: no such workload file" >&2; exit 2; }
workload=$(realpath "$1")
outdir=$2
shift 2
tasks=8
if [ $# -gt 0 ] && [[ $1 =~ ^[0-9]+$ ]]; then
  tasks=$1
  shift
fi
[ "$tasks" -ge 1 ] || { echo "submit.sh: TASKS must be 1 or more" >&2; exit 2; }

after=${SPMMA_MERGE_AFTER:-afterok}
case "$after" in afterok | afterany) ;; *) echo "submit.sh: SPMMA_MERGE_AFTER must be afterok or afterany" >&2; exit 2 ;; esac
command -v sbatch >/dev/null || { echo "submit.sh: sbatch not found (not a Slurm submit host?)" >&2; exit 2; }
if [ -z "${SPMMA:-}" ]; then
  SPMMA=$(command -v spmma || true)
  [ -n "$SPMMA" ] || SPMMA=$here/../../build/bin/spmma
fi
[ -x "$SPMMA" ] || { echo "submit.sh: spmma not found at $SPMMA (build it, or set SPMMA)" >&2; exit 2; }
export SPMMA=$(realpath "$SPMMA")

mkdir -p "$outdir"
outdir=$(realpath "$outdir")
# NOTES: shard I of N holds jobs I, I+N, ...; records kept from a sweep of another N would land
# in the wrong files and be doubled by the merge.
if [ -f "$outdir/tasks" ] && [ "$(cat "$outdir/tasks")" != "$tasks" ]; then
  echo "submit.sh: $outdir holds a sweep of $(cat "$outdir/tasks") tasks; resume it with that count or use another folder" >&2
  exit 2
fi
echo "$tasks" >"$outdir/tasks"

read -r -a common <<<"${SPMMA_SBATCH_OPTIONS:-}"
gres=()
[ -z "${SPMMA_GPUS_PER_TASK:-}" ] || gres=(--gres="gpu:$SPMMA_GPUS_PER_TASK")

array=$(sbatch --parsable --export=ALL "${common[@]}" "${gres[@]}" --array="0-$((tasks - 1))" \
  --output="$outdir/slurm-%A_%a.out" "$here/sweep.sbatch" "$workload" "$outdir" "$@")
array=${array%%;*}
merge=$(sbatch --parsable --export=ALL "${common[@]}" --dependency="$after:$array" --kill-on-invalid-dep=yes \
  --output="$outdir/slurm-merge-%j.out" "$here/merge.sbatch" "$workload" "$outdir" "$tasks")
merge=${merge%%;*}
echo "$array $merge"
