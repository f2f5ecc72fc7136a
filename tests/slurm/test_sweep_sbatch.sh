#!/usr/bin/env bash
# scripts/slurm on a real Slurm: a one-node cluster on this machine (local_slurm.sh) runs a 4-task
# array of sweep.sbatch over configs/quick.toml on the cpu plugin, then the merge job.
#  1. merged.jsonl holds the records of one unsharded spmma run, record for record (times aside).
#  2. A task requeued after losing its last records (shard-0.jsonl cut to two records and a torn
#     line, as a pre-emption leaves it) starts again on the same shard, runs only the 4 missing
#     runs, and a new merge job after the array gives the same records.
#  3. Submitting again into the same folder resumes: every task finds its runs recorded and
#     succeeds running nothing; the shard files and the merge are unchanged.
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
export SPMMA=$spmma  # for the jobs submitted here without submit.sh
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

# fail WHY: says so, with what each job said of itself and the daemons' last lines.
fail() {
  echo "FAILED: $*"
  for f in "$out"/slurm-*.out; do
    [ -f "$f" ] || continue
    echo "--- $f"
    grep -E '^(sweep|merge)\.sbatch:|^spmma|verified, |records of|^(missing|duplicated|does not fit):' "$f" || true
  done
  for f in "$cluster"/log/slurmctld.log "$cluster"/log/slurmd.log; do
    [ -f "$f" ] || continue
    echo "--- $f (last lines)"
    tail -n 12 "$f"
  done
  exit 1
}

rc=0
env_line=$("$here/local_slurm.sh" start "$cluster" $$ 2>"$tmp/start.err") || rc=$?
if [ "$rc" -eq "$kSkip" ]; then
  echo "SKIPPED: $(tail -n 1 "$tmp/start.err")"
  exit "$kSkip"
elif [ "$rc" -ne 0 ]; then
  cat "$tmp/start.err"
  fail "the cluster was started but did not come up (local_slurm.sh exit $rc)"
fi
eval "$env_line"
echo "cluster up: $SLURM_CONF"

# job_states ID: the states of a job's records (an array: one line per task), as scontrol says.
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

# expect_completed ID COUNT: job ID (an array: each task) ended COMPLETED, COUNT records of it.
expect_completed() {
  local states
  states=$(job_states "$1" | sort | uniq -c | tr -s ' ' | tr '\n' ';')
  [ "$(job_states "$1" | grep -c '^COMPLETED$')" -eq "$2" ] || fail "job $1: not $2 COMPLETED ($states)"
}

# sweep: submit.sh's array and merge, waited for; both must have COMPLETED. Sets array.
sweep() {
  local ids merge
  ids=$("$root/scripts/slurm/submit.sh" "$workload" "$out" 4 --plugin cpu) || fail "submit.sh failed"
  read -r array merge <<<"$ids"
  echo "submitted array $array, merge $merge"
  wait_done "$merge" 240
  expect_completed "$array" 4
  expect_completed "$merge" 1
}

# 1. The sweep, and the same workload in one unsharded run outside Slurm.
sweep
grep -h "records of" "$out"/slurm-merge-*.out
env -u SLURM_ARRAY_TASK_ID -u SLURM_ARRAY_TASK_COUNT -u SLURM_ARRAY_TASK_MIN \
  "$spmma" run "$workload" --plugin cpu --no-progress -q --json "$tmp/whole.jsonl" || fail "the unsharded run failed"
python3 "$here/same_records.py" "$tmp/whole.jsonl" "$out/merged.jsonl" || fail "merged.jsonl differs from the unsharded run"

# 2. Task 0 requeued with 2 of its 6 records and a torn third.
[ "$(wc -l <"$out/shard-0.jsonl")" -eq 6 ] || fail "shard-0.jsonl: not the 6 records of jobs 0, 4, ..., 20"
head -n 2 "$out/shard-0.jsonl" | md5sum >"$tmp/kept.md5"
{ head -n 2 "$out/shard-0.jsonl"; sed -n 3p "$out/shard-0.jsonl" | head -c 200; } >"$tmp/cut.jsonl"
mv "$tmp/cut.jsonl" "$out/shard-0.jsonl"
scontrol requeue "${array}_0" || fail "scontrol requeue ${array}_0 failed"
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes --output="$out/slurm-merge-%j.out" \
  "$root/scripts/slurm/merge.sbatch" "$workload" "$out" 4) || fail "sbatch merge.sbatch failed"
echo "requeued task ${array}_0, merge $merge"
wait_done "$merge" 240
expect_completed "$array" 4
expect_completed "$merge" 1
scontrol -o show job "${array}_0" | grep -q 'Restarts=1' || fail "task ${array}_0 was not restarted"
task0=$out/slurm-${array}_0.out
grep -q "shard 0/4 .*(start 2)" "$task0" || fail "the requeued task did not start again on shard 0/4"
grep -q "2 records in .* are kept" "$task0" || fail "the requeued task did not keep the 2 whole records"
grep -q "the last record was cut short" "$task0" || fail "the requeued task did not drop the torn record"
# The kept records count as if made now: both starts of task 0 (its output file holds both) sum up
# its whole shard, and its file holds the 2 kept records unchanged followed by the 4 runs made
# again (no record twice: same_records.py).
[ "$(grep -c '^6 verified, 0 failed' "$task0")" -eq 2 ] || fail "a start of task 0 did not sum up its whole shard (6 verified)"
[ "$(wc -l <"$out/shard-0.jsonl")" -eq 6 ] || fail "the requeued task did not make exactly the 4 missing runs"
[ "$(head -n 2 "$out/shard-0.jsonl" | md5sum)" = "$(cat "$tmp/kept.md5")" ] || fail "the requeued task changed its 2 kept records"
python3 "$here/same_records.py" "$tmp/whole.jsonl" "$out/merged.jsonl" || fail "after the requeue, merged.jsonl differs from the unsharded run"

# 3. The whole sweep submitted again into the same folder.
cat "$out"/shard-*.jsonl | md5sum >"$tmp/shards.before"
cp "$out/merged.jsonl" "$tmp/merged.second"
sweep
cat "$out"/shard-*.jsonl | md5sum | cmp -s - "$tmp/shards.before" || fail "the resubmitted sweep changed the shard files (ran again)"
cmp -s "$out/merged.jsonl" "$tmp/merged.second" || fail "the resubmitted sweep merged other records"
[ "$(grep -l "are kept (counted and reported as if made now); their runs are skipped" "$out"/slurm-"${array}"_*.out | wc -l)" -eq 4 ] || fail "not every task said it resumed"
echo "PASSED: 4 shards under Slurm merged equal one run; a requeued task ran only its missing runs; a resubmission ran nothing again"
