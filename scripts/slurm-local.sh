#!/usr/bin/env bash
# Single-node SLURM for the explore tests and for developers.
#
#   scripts/slurm-local.sh start   installs slurm-wlm and munge if missing (as
#                                  root), runs munged as root, writes
#                                  slurm.conf for this host, starts slurmctld
#                                  and slurmd, waits until the node is idle
#                                  (or says "already running" and does
#                                  nothing when the node is up already)
#   scripts/slurm-local.sh stop    stops the daemons start started, by pid
#   scripts/slurm-local.sh status  sinfo and squeue
#
# munged runs as root because /dev/null is not writable by the munge user
# on these machines. The pids of the daemons started go to $SLURM_LOCAL_STATE
# (default /run/slurm-local); stop kills only those. Needs root.
set -euo pipefail
state=${SLURM_LOCAL_STATE:-/run/slurm-local}
conf_dir=/etc/slurm
host=$(hostname)

log() { echo "slurm-local: $*" >&2; }
die() { log "$*"; exit 1; }

need_root() {
  [ "$(id -u)" -eq 0 ] || die "needs root (munged and slurmd run as root here)"
}

install_packages() {
  local need=()
  command -v sbatch >/dev/null 2>&1 || need+=(slurm-wlm)
  command -v munged >/dev/null 2>&1 || need+=(munge)
  [ ${#need[@]} -eq 0 ] && return 0
  log "installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}

# pid_alive FILE: the pid in FILE names a running process.
pid_alive() {
  [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

start_munge() {
  if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
    log "munge already answers"
    return 0
  fi
  mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
  fi
  chown root:root /etc/munge /etc/munge/munge.key /run/munge /var/lib/munge /var/log/munge
  chmod 400 /etc/munge/munge.key
  chmod 700 /etc/munge /var/lib/munge /var/log/munge
  chmod 755 /run/munge
  munged --force --pid-file=/run/munge/munged.pid
  for _ in $(seq 50); do
    if munge -n 2>/dev/null | unmunge >/dev/null 2>&1; then
      cp /run/munge/munged.pid "$state/munged.pid"
      return 0
    fi
    sleep 0.1
  done
  die "munged started but munge -n | unmunge fails"
}

write_conf() {
  local cpus mem
  cpus=$(nproc)
  mem=$(awk '/MemTotal/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
  mkdir -p "$conf_dir" /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
  cat >"$conf_dir/slurm.conf" <<CONF
# Written by scripts/slurm-local.sh: one node, this host.
ClusterName=fabricmodel
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
ReturnToService=2
MaxArraySize=10001
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=5
KillWait=5
Waittime=0
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
}

node_idle() {
  sinfo -h -N -n "$host" -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)'
}

start() {
  if command -v sinfo >/dev/null 2>&1 && node_idle; then
    log "already running: node $host is up"
    return 0
  fi
  need_root
  install_packages
  mkdir -p "$state"
  start_munge
  write_conf
  if ! pid_alive "$state/slurmctld.pid"; then
    slurmctld -i || die "slurmctld failed: $(tail -n 5 /var/log/slurm/slurmctld.log 2>/dev/null)"
  fi
  for _ in $(seq 100); do
    scontrol ping 2>/dev/null | grep -q UP && break
    sleep 0.1
  done
  if ! pid_alive "$state/slurmd.pid"; then
    slurmd || die "slurmd failed: $(tail -n 5 /var/log/slurm/slurmd.log 2>/dev/null)"
  fi
  for _ in $(seq 300); do
    if node_idle; then
      log "node $host idle with $(nproc) CPUs"
      return 0
    fi
    sleep 0.1
  done
  scontrol update NodeName="$host" State=RESUME >/dev/null 2>&1 || true
  for _ in $(seq 100); do
    node_idle && return 0
    sleep 0.1
  done
  sinfo -N -l >&2 || true
  tail -n 20 /var/log/slurm/slurmctld.log /var/log/slurm/slurmd.log >&2 || true
  die "node $host did not become idle"
}

stop() {
  local f pid
  for f in slurmd slurmctld munged; do
    if pid_alive "$state/$f.pid"; then
      pid=$(cat "$state/$f.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
      log "stopped $f ($pid)"
    fi
    rm -f "$state/$f.pid"
  done
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) sinfo; squeue ;;
*) die "usage: $0 start|stop|status" ;;
esac
