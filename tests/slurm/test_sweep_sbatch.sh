#!/usr/bin/env bash
# scripts/slurm on a real Slurm: a one-node cluster on this machine (local_slurm.sh) runs a 4-task
# array of sweep.sbatch over configs/quick.toml on the cpu plugin, then the merge job; merged.jsonl
# must hold the records of one unsharded spmma run, record for record (times aside). Submitting
# again into the same folder must resume: every task finds its runs recorded, runs nothing, and the
# merge is the same.
#
#   tests/slurm/test_sweep_sbatch.sh SPMMA_EXE
#
# Exit 0 passed, 1 failed, 77 skipped (the daemons cannot run here: the reason is printed).
# KEEP=1 keeps the temporary folder (cluster logs, records) and says where.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
readonly kSkip=77

[ $# -eq 1 ] || { echo "usage: $0 SPMMA_EXE" >&2; exit 2; }
spmma=$(realpath "$1")
workload=$root/configs/quick.toml
tmp=$(mktemp -d)
cluster=$tmp/cluster
out=$tmp/out
mkdir "$cluster"

cleanup() {
  "$here/local_slurm.sh" stop "$cluster" || true
  if [ "${KEEP:-0}" = 1 ]; then echo "kept $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() {
  echo "FAILED: $*"
  for f in "$out"/slurm-*.out "$cluster"/log/slurmctld.log "$cluster"/log/slurmd.log; do
    [ -f "$f" ] || continue
    echo "--- $f (last lines)"
    tail -n 12 "$f"
  done
  exit 1
}

rc=0
env_line=$("$here/local_slurm.sh" start "$cluster" 2>"$tmp/start.err") || rc=$?
if [ "$rc" -eq "$kSkip" ]; then
  echo "SKIPPED: $(tail -n 1 "$tmp/start.err")"
  exit "$kSkip"
elif [ "$rc" -ne 0 ]; then
  cat "$tmp/start.err"
  fail "the cluster was started but did not come up (local_slurm.sh exit $rc)"
fi
eval "$env_line"
echo "cluster up: $SLURM_CONF"

# job_state ID: the states of a job's records (an array: one line per task), as scontrol says.
job_states() {
  scontrol -o show job "$1" | grep -o 'JobState=[A-Z_]*' | cut -d= -f2
}

# wait_done ID SECONDS: until no record of job ID is pending or running.
wait_done() {
  local deadline=$((SECONDS + $2))
  while job_states "$1" | grep -qE '^(PENDING|CONFIGURING|RUNNING|COMPLETING|REQUEUED|SUSPENDED)$'; do
    [ "$SECONDS" -lt "$deadline" ] || fail "job $1 not done in $2 s: $(job_states "$1" | tr '\n' ' ')"
    sleep 0.5
  done
}

# sweep: submit.sh's array and merge, waited for; both must have COMPLETED.
sweep() {
  local ids array merge
  ids=$(SPMMA=$spmma "$root/scripts/slurm/submit.sh" "$workload" "$out" 4 --plugin cpu) || fail "submit.sh failed"
  read -r array merge <<<"$ids"
  echo "submitted array $array, merge $merge"
  wait_done "$merge" 240
  local states
  states=$(job_states "$array" | sort | uniq -c | tr -s ' ' | tr '\n' ';')
  [ "$(job_states "$array" | grep -c '^COMPLETED$')" -eq 4 ] || fail "array $array: not 4 tasks COMPLETED ($states)"
  [ "$(job_states "$merge")" = COMPLETED ] || fail "merge job $merge: $(job_states "$merge")"
}

sweep
[ "$(wc -l <"$out/merged.jsonl")" -gt 0 ] || fail "merged.jsonl is empty"
grep -h "records of" "$out"/slurm-merge-*.out

# The same workload in one unsharded run, outside Slurm.
env -u SLURM_ARRAY_TASK_ID -u SLURM_ARRAY_TASK_COUNT -u SLURM_ARRAY_TASK_MIN \
  "$spmma" run "$workload" --plugin cpu --no-progress -q --json "$tmp/whole.jsonl" || fail "the unsharded run failed"
python3 "$here/same_records.py" "$tmp/whole.jsonl" "$out/merged.jsonl" || fail "merged.jsonl differs from the unsharded run"

# Again into the same folder: resumed, nothing run twice.
cat "$out"/shard-*.jsonl | md5sum >"$tmp/shards.before"
cp "$out/merged.jsonl" "$tmp/merged.first"
sweep
cat "$out"/shard-*.jsonl | md5sum | cmp -s - "$tmp/shards.before" || fail "the resubmitted sweep changed the shard files (ran again)"
cmp -s "$out/merged.jsonl" "$tmp/merged.first" || fail "the resubmitted sweep merged other records"
grep -q "are kept; their runs are skipped" "$out"/slurm-*_0.out || fail "task 0 did not say it resumed"
echo "PASSED: 4 shards under Slurm merged equal one run; a resubmission resumed and ran nothing again"
