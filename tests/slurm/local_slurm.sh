#!/usr/bin/env bash
# A throwaway one-node Slurm cluster on this machine, for tests: munged, slurmctld and slurmd run
# as background daemons out of one folder, on free loopback ports, so that several can run side by
# side and none touches /etc/slurm or /etc/munge.
#
#   tests/slurm/local_slurm.sh start DIR [OWNER_PID]   # DIR: an empty folder; prints what to export
#   tests/slurm/local_slurm.sh stop DIR                 # cancels its jobs, stops its daemons
#
# With OWNER_PID the cluster is also stopped within a second of that process ending, however it
# ends (a test killed at its time limit included).
#
# start exits 0 when the node is idle and takes jobs; 77 when this machine cannot run the daemons
# (not root, a program missing), with the reason as the last line on stderr; 1 when they were started
# but did not come up (their log tails follow). The programs can be named by environment, e.g. to
# try another build: MUNGED, SLURMCTLD, SLURMD (default: found on PATH or in /usr/sbin).
# Debian 12's slurm-wlm 22.05 and munge 0.5 are what it is written and tested against.
set -euo pipefail

readonly kCannot=77

cannot() {
  echo "local_slurm: cannot start a Slurm cluster here: $*" >&2
  exit "$kCannot"
}

# find_program VAR NAME: the program VAR names, else NAME on PATH or in /usr/sbin; cannot() if absent.
find_program() {
  local var=$1 name=$2 path
  if [ -n "${!var:-}" ]; then
    path=${!var}
    [ -x "$path" ] || cannot "$var=$path is not an executable program"
  else
    path=$(PATH="$PATH:/usr/sbin:/sbin" command -v "$name" || true)
    [ -n "$path" ] || cannot "$name not found (Debian: apt-get install slurmctld slurmd slurm-client munge)"
  fi
  echo "$path"
}

# free_ports N: N TCP ports on 127.0.0.1 that nothing listens on now.
free_ports() {
  python3 - "$1" <<'EOF'
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

# NOTES: every daemon runs in the foreground (-D / -F) behind '&', so the id recorded is the
# daemon's own, and its output goes to a file: a daemon holding the caller's stdout would keep
# ctest waiting for the pipe to close.
spawn() {
  local dir=$1 name=$2
  shift 2
  "$@" </dev/null >"$dir/log/$name.out" 2>&1 &
  last_pid=$!
  echo "$name $last_pid" >>"$dir/pids"
}

# write_slurm_conf DIR HOST MUNGE_SOCKET SLURMCTLD_PORT SLURMD_PORT
write_slurm_conf() {
  local dir=$1 host=$2 socket=$3 ctld_port=$4 slurmd_port=$5
  cat >"$dir/slurm.conf" <<EOF
# Written by tests/slurm/local_slurm.sh: one node, this machine, no cgroups, no accounting.
ClusterName=spmmatest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
# A requeued job may start again cred_expire seconds after it ended (default 120).
AuthInfo=socket=$socket,cred_expire=5
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# NOTES: the node is what this file says, not what slurmd measures, so a small VM is never drained
# for having less memory or fewer sockets than the line below implies.
SlurmdParameters=config_overrides
ReturnToService=2
# Dependent jobs start within a second or two of the jobs they wait for, not at the next minute.
SchedulerParameters=sched_interval=1
MinJobAge=600
NodeName=$host NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
}

# start_munged DIR SOCKET MUNGED
start_munged() {
  local dir=$1 munged=$3
  local socket=$2
  mkdir -p "$dir/munge"
  chmod 700 "$dir/munge"
  head -c 1024 /dev/urandom >"$dir/munge/key"
  chmod 400 "$dir/munge/key"
  spawn "$dir" munged "$munged" -F --key-file="$dir/munge/key" --socket="$socket" \
    --pid-file="$dir/munge/pid" --log-file="$dir/log/munged.log" --seed-file="$dir/munge/seed"
  wait_for 10 test -S "$socket" || fail_started "$dir" "munged did not open its socket"
}

# wait_for SECONDS COMMAND...: true as soon as COMMAND succeeds; false after SECONDS or as soon as
# the daemon spawned last has died.
wait_for() {
  local deadline=$((SECONDS + $1))
  shift
  until "$@" >/dev/null 2>&1; do
    [ "$SECONDS" -lt "$deadline" ] && kill -0 "$last_pid" 2>/dev/null || return 1
    sleep 0.2
  done
}

node_idle() {
  [ "$(sinfo -h -N -o %T 2>/dev/null)" = idle ]
}

fail_started() {
  local dir=$1
  echo "local_slurm: $2" >&2
  for f in "$dir"/log/*; do
    echo "--- $f (last lines)" >&2
    tail -n 15 "$f" >&2 || true
  done
  stop "$dir"
  exit 1
}

start() {
  local dir=$1 owner=${2:-}
  [ "$(id -u)" -eq 0 ] || cannot "not root (slurmd runs jobs as their user, so it must run as root)"
  command -v python3 >/dev/null || cannot "python3 not found (picks free ports)"
  local munged slurmctld slurmd
  munged=$(find_program MUNGED munged)
  slurmctld=$(find_program SLURMCTLD slurmctld)
  slurmd=$(find_program SLURMD slurmd)
  for client in sbatch squeue sinfo scontrol scancel; do
    command -v "$client" >/dev/null || cannot "$client not found (Debian: apt-get install slurm-client)"
  done
  [ -d "$dir" ] && [ -z "$(ls -A "$dir")" ] || { echo "local_slurm: $dir must be an empty folder" >&2; exit 2; }
  dir=$(cd "$dir" && pwd)
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  [ -z "$owner" ] || watch_owner "$dir" "$owner"
  # NOTES: munged wants every folder above its socket open to all (o+x), which a mktemp -d folder
  # such as DIR's parent may not be: the socket gets a folder of its own in /tmp.
  local sockdir
  sockdir=$(mktemp -d /tmp/spmma-munge.XXXXXX)
  chmod 755 "$sockdir"
  echo "$sockdir" >"$dir/munge-socket-dir"
  local host ports
  host=$(hostname -s)
  ports=$(free_ports 2)
  write_slurm_conf "$dir" "$host" "$sockdir/socket" ${ports}
  export SLURM_CONF=$dir/slurm.conf

  start_munged "$dir" "$sockdir/socket" "$munged"
  spawn "$dir" slurmctld "$slurmctld" -D -f "$SLURM_CONF"
  wait_for 20 scontrol ping || fail_started "$dir" "slurmctld did not answer within 20 s"
  spawn "$dir" slurmd "$slurmd" -D -f "$SLURM_CONF" -N "$host"
  wait_for 30 node_idle || fail_started "$dir" "node $host not idle within 30 s (sinfo: $(sinfo -h -N -o '%T %E' 2>&1))"
  echo "export SLURM_CONF=$SLURM_CONF"
}

# watch_owner DIR PID: a background watch that stops the cluster once PID has ended. Not in the pids
# file (stop would end it while it runs stop); after a normal stop it finds nothing left to do.
watch_owner() {
  local dir=$1 owner=$2 self
  self=$(realpath "$0")
  (
    while kill -0 "$owner" 2>/dev/null; do sleep 1; done
    "$self" stop "$dir"
  ) </dev/null >>"$dir/log/watch.out" 2>&1 &
}

# stop DIR: every job cancelled, then the daemons this folder's pids file names, newest first.
stop() {
  local dir=$1
  if [ -f "$dir/pids" ]; then
    export SLURM_CONF=$dir/slurm.conf
    local ctld
    ctld=$(awk '$1 == "slurmctld" {print $2}' "$dir/pids")
    if [ -n "$ctld" ] && kill -0 "$ctld" 2>/dev/null; then
      timeout 10 scancel --quiet --user=root >/dev/null 2>&1 || true
    fi
    tac "$dir/pids" | while read -r name pid; do stop_daemon "$name" "$pid"; done
    rm -f "$dir/pids"
  fi
  if [ -f "$dir/munge-socket-dir" ]; then
    rm -rf "$(cat "$dir/munge-socket-dir")"
    rm -f "$dir/munge-socket-dir"
  fi
}

# stop_daemon NAME PID: SIGTERM, and SIGKILL if it is still there 10 s later.
stop_daemon() {
  local name=$1 pid=$2
  kill -TERM "$pid" 2>/dev/null || return 0
  for _ in $(seq 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.2
  done
  echo "local_slurm: $name ($pid) did not stop in 10 s: killed" >&2
  kill -KILL "$pid" 2>/dev/null || true
}

case "${1:-}" in
  start) [ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: $0 start DIR [OWNER_PID]" >&2; exit 2; }; start "$2" "${3:-}" ;;
  stop) [ $# -eq 2 ] || { echo "usage: $0 stop DIR" >&2; exit 2; }; stop "$2" ;;
  *) echo "usage: $0 start DIR [OWNER_PID] | stop DIR" >&2; exit 2 ;;
esac
