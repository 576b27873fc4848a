#!/usr/bin/env bash
# tests/slurm/run.sh - `runner submit`, `runner status` and `runner submit
# --resume` against a real one-node Slurm cluster, started here (make test).
#
# As root it installs slurmctld, slurmd, slurm-client and munge when they
# are missing (apt-get; no daemon is started by the install), then starts
# munged, slurmctld and slurmd without systemd, all under one temporary
# folder (own munge key and socket, own slurm.conf and ports), and stops
# exactly those daemons again, by the PIDs it recorded, however it ends.
# Every wait is bounded.  The last line is either
#   slurm: skipped: REASON            (exit 0)
#   slurm: N passed, M failed         (exit 1 when M > 0)
# RUNNER_SLURM_TEST=0 skips it.
set -u
cd "$(dirname "$0")/../.."
T0=$(date +%s)
BIN=${RUNNER_BIN:-bin/runner}
pass=0 fail=0
base="" munge_pid="" ctld_pid="" slurmd_pid="" policy_made="" cleaned="" local1="" local2=""

ok()  { pass=$((pass + 1)); echo "PASS $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

# A PID is stopped only while its command line is still the daemon we
# started (it names our config, socket or key under $base).
ours() { [ -n "$1" ] && [ -r "/proc/$1/cmdline" ] && tr '\0' ' ' <"/proc/$1/cmdline" | grep -qF -- "$base"; }
stop_pid() {
  local pid=$1 i
  ours "$pid" || return 0
  kill "$pid" 2>/dev/null
  for i in $(seq 50); do ours "$pid" || return 0; sleep 0.1; done
  ours "$pid" && kill -9 "$pid" 2>/dev/null
}
cleanup() {
  [ -n "$cleaned" ] && return
  cleaned=1
  # the reference runs, if still running (interrupted)
  for pid in $local1 $local2; do kill "$pid" 2>/dev/null; done
  for pid in $local1 $local2; do timeout 10 tail --pid="$pid" -f /dev/null; done 2>/dev/null
  if [ -n "$ctld_pid" ] && ours "$ctld_pid"; then
    # the jobs of this private cluster (every one of them is this test's)
    ids=$(timeout 5 squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ')
    [ -n "${ids// /}" ] && timeout 5 scancel $ids >/dev/null 2>&1
    for i in $(seq 50); do
      [ -z "$(timeout 5 squeue -h -o %A 2>/dev/null)" ] && break
      sleep 0.2
    done
  fi
  stop_pid "$slurmd_pid"
  stop_pid "$ctld_pid"
  stop_pid "$munge_pid"
  [ -n "$policy_made" ] && rm -f /usr/sbin/policy-rc.d
  [ -n "$base" ] && [ -d "$base" ] && rm -rf "$base"
}
finish() {
  cleanup
  echo "slurm: took $(( $(date +%s) - T0 )) s"
  echo "slurm: $pass passed, $fail failed"
  [ "$fail" -eq 0 ]
  exit
}
skip() { cleanup; echo "slurm: skipped: $1"; exit 0; }
trap 'cleanup' EXIT
trap 'cleanup; echo "slurm: interrupted: $pass passed, $fail failed"; exit 1' INT TERM HUP

[ "${RUNNER_SLURM_TEST:-1}" = 0 ] && skip "RUNNER_SLURM_TEST=0"
[ -x "$BIN" ] || skip "no runner binary at $BIN"
BIN=$(realpath "$BIN")
"$BIN" submit --help >/dev/null 2>&1 || skip "$BIN has no submit command"
[ "$(id -u)" = 0 ] || skip "needs root (installs and starts Slurm and munge)"

# --- Slurm and munge -------------------------------------------------------
have_all() { command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged; } >/dev/null 2>&1
export PATH="$PATH:/usr/sbin:/sbin"
if ! have_all; then
  command -v apt-get >/dev/null || skip "Slurm is not installed and there is no apt-get"
  # no daemon may start from the packages' scripts
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && policy_made=1
  fi
  pkgs="slurmctld slurmd slurm-client munge"
  echo "slurm: installing $pkgs"
  inst() { DEBIAN_FRONTEND=noninteractive timeout 300 apt-get install -y -qq --no-install-recommends $pkgs >/dev/null 2>&1; }
  inst || { timeout 120 apt-get update -qq >/dev/null 2>&1 && inst; } || skip "apt-get install $pkgs failed"
  [ -n "$policy_made" ] && rm -f /usr/sbin/policy-rc.d && policy_made=""
  have_all || skip "Slurm is still missing after apt-get install"
fi

base=$(mktemp -d /tmp/runner-slurm.XXXXXX) || skip "mktemp failed"
chmod 755 "$base"
mkdir -p "$base/munge" "$base/state" "$base/spool" "$base/log" "$base/exp"
chmod 755 "$base/munge"

# munged: its own key (root's, 0400: munged runs as root here), socket,
# pid, log and seed files; --force as it runs as root
key="$base/munge/munge.key"
dd if=/dev/urandom of="$key" bs=1 count=1024 status=none && chmod 400 "$key"
sock="$base/munge/munge.socket"
timeout 20 munged --force --key-file="$key" --socket="$sock" --pid-file="$base/munge/munged.pid" \
  --log-file="$base/munge/munged.log" --seed-file="$base/munge/munged.seed" --origin=127.0.0.1 \
  >"$base/log/munged.out" 2>&1 || { cat "$base/log/munged.out"; skip "munged would not start"; }
munge_pid=$(cat "$base/munge/munged.pid" 2>/dev/null)
for i in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || skip "munged made no socket"

# two free TCP ports for slurmctld and slurmd
free_port() {
  local p
  for i in $(seq 50); do
    p=$((20000 + RANDOM % 20000))
    ss -Htln 2>/dev/null | awk '{print $4}' | grep -q ":$p\$" || { echo "$p"; return; }
  done
  echo $((20000 + RANDOM % 20000))
}
p1=$(free_port); p2=$(free_port)
[ "$p2" = "$p1" ] && p2=$((p1 + 1))

host=$(hostname -s 2>/dev/null || cut -d. -f1 /proc/sys/kernel/hostname)
hw=$(timeout 20 slurmd -C 2>/dev/null | head -1 | sed 's/^NodeName=[^ ]* //')
case "$hw" in *CPUs=*) ;; *) hw="CPUs=$(nproc)" ;; esac
conf="$base/slurm.conf"
cat >"$conf" <<EOF
ClusterName=runnertest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$p1
SlurmdPort=$p2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$base/state
SlurmdSpoolDir=$base/spool
SlurmctldPidFile=$base/slurmctld.pid
SlurmdPidFile=$base/slurmd.pid
SlurmctldLogFile=$base/log/slurmctld.log
SlurmdLogFile=$base/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerParameters=batch_sched_delay=0
MpiDefault=none
MailProg=/bin/true
MinJobAge=120
KillWait=5
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$conf"
timeout 20 slurmctld -f "$conf" >"$base/log/slurmctld.out" 2>&1
for i in $(seq 100); do [ -s "$base/slurmctld.pid" ] && break; sleep 0.1; done
ctld_pid=$(cat "$base/slurmctld.pid" 2>/dev/null)
timeout 20 slurmd -f "$conf" -N "$host" >"$base/log/slurmd.out" 2>&1
for i in $(seq 100); do [ -s "$base/slurmd.pid" ] && break; sleep 0.1; done
slurmd_pid=$(cat "$base/slurmd.pid" 2>/dev/null)
up=""
for i in $(seq 100); do   # at most ~30 s
  st=$(timeout 5 sinfo -h -N -o %T 2>/dev/null | head -1)
  case "$st" in idle*|mixed*|allocated*) up=1; break ;; esac
  sleep 0.3
done
if [ -z "$up" ]; then
  tail -5 "$base/log/slurmctld.log" "$base/log/slurmd.log" "$base/log/"*.out 2>/dev/null
  skip "the test cluster did not come up (node state '${st:-none}')"
fi
echo "slurm: one-node cluster up in $(( $(date +%s) - T0 )) s ($(sbatch --version), node $host: $hw)"

# --- helpers ----------------------------------------------------------------
# Waits (at most $2 seconds) until none of the jobs $1 (comma list) may
# still run; 1 on a timeout.
wait_jobs() {
  local ids=$1 limit=$2 start=$(date +%s) left
  while :; do
    left=$(timeout 10 squeue -h -r -j "$ids" -o %T 2>/dev/null |
           grep -cvE '^(COMPLETED|CANCELLED|FAILED|TIMEOUT|NODE_FAIL|PREEMPTED|BOOT_FAIL|DEADLINE|OUT_OF_MEMORY)')
    [ "$left" = 0 ] && return 0
    [ $(( $(date +%s) - start )) -ge "$limit" ] && return 1
    sleep 0.3
  done
}
# trial number and key columns (all before `status`) of a trials.csv
keys() { awk -F, 'NR==1{for(i=1;i<=NF;i++) if($i=="status") s=i-1} {o=$1; for(i=2;i<=s;i++) o=o","$i; print o}' "$1"; }
jobs_of() { awk -v k="$2" '$1==k{id=$2} END{print id}' "$1/slurm-jobs.txt"; }
# the newest run folder (submit does not move latest: the merge earns it)
run_of() { r=; for d in "$1"/[0-9]*/; do r=${d%/}; done; echo "$r"; }
rows() { [ -f "$1" ] && echo $(( $(wc -l <"$1") - 1 )) || echo 0; }
show_logs() {
  tail -n 5 "$base/log/slurmctld.log" "$base/log/slurmd.log" 2>/dev/null
  for f in "$1"/slurm-*.out; do [ -f "$f" ] && { echo "== $f"; tail -n 5 "$f"; }; done
}

# The experiments: 20 quick trials; 24 slow ones (0.4 s each: 2.4 s a
# shard) to cancel one of while it runs.  batch: 1 = one call a sample.
cat >"$base/exp/quick.yaml" <<'EOF'
name: quick
workload: selftest
params: {action: sleep, seconds: 0.01}
sweep:
  seed: {range: [1, 20]}
repeats: 1
warmups: 0
batch: 1
EOF
sed -e 's/^name: quick/name: slow/' -e 's/seconds: 0.01/seconds: 0.4/' -e 's/range: \[1, 20\]/range: [1, 24]/' \
  "$base/exp/quick.yaml" >"$base/exp/slow.yaml"
# the references: the same experiments run here, while the cluster works
"$BIN" --quiet --no-plots --output "$base/local" "$base/exp/quick.yaml" >"$base/log/local1.out" 2>&1 &
local1=$!
"$BIN" --quiet --no-plots --output "$base/local" "$base/exp/slow.yaml" >"$base/log/local2.out" 2>&1 &
local2=$!
# results under a folder whose name needs quoting, in sh and in #SBATCH lines
out="$base/out dir/it's \"here\" #1"

# --- 1. submit, wait, merged = local -----------------------------------------
comment="it's a \"test\" #1, packjob"
"$BIN" submit "$base/exp/quick.yaml" --shards 4 --time 5 --output "$out" --sbatch-arg="--comment=$comment" \
  >"$base/log/submit1.out" 2>&1
rc=$?
check "submit: 4 shards as a job array, exit 0" [ "$rc" -eq 0 ]
[ "$rc" -eq 0 ] || cat "$base/log/submit1.out"
run1=$(run_of "$out/quick")
a1=$(jobs_of "$run1" array); m1=$(jobs_of "$run1" merge)
check "submit wrote job.sbatch, merge.sbatch, slurm-jobs.txt (array $a1, merge $m1)" \
  [ -f "$run1/job.sbatch" -a -f "$run1/merge.sbatch" -a -n "$a1" -a -n "$m1" ]
check "sbatch read the --sbatch-arg as given (quotes, '#', 'packjob')" \
  grep -qF "Comment=$comment" <(timeout 10 scontrol show job "$m1" 2>&1)
if wait_jobs "$a1,$m1" 90; then ok "array and merge jobs ended"; else bad "jobs still queued after 90 s"; fi
wait "$local1"
check "merged trials.csv has the local run's trial numbers and keys" \
  diff <(keys "$run1/trials.csv") <(keys "$base/local/quick/latest/trials.csv")
check "merged meta.json is finished" grep -q '"finished": true' "$run1/meta.json"
check "latest is earned: the merge moved it to the run" [ "$(readlink "$out/quick/latest")" = "$(basename "$run1")" ]
check "each shard's Slurm log is in the run folder" [ "$(ls "$run1"/slurm-"$a1"_*.out 2>/dev/null | wc -l)" -eq 4 -a -f "$run1/slurm-merge-$m1.out" ]
"$BIN" status "$run1" >"$base/log/status1.out" 2>&1
rc=$?
check "status: exit 0, 4 shards finished and COMPLETED" \
  [ "$rc" -eq 0 -a "$(grep -c ' finished .*COMPLETED' "$base/log/status1.out")" -eq 4 ]
[ "$fail" -eq 0 ] || { cat "$base/log/status1.out"; show_logs "$run1"; }

# --- 2. cancel a running shard, status, submit --resume -----------------------
"$BIN" submit "$base/exp/slow.yaml" --shards 4 --output "$out" >"$base/log/submit2.out" 2>&1
check "submit of the slow experiment" [ $? -eq 0 ]
run2=$(run_of "$out/slow")
a2=$(jobs_of "$run2" array); m2=$(jobs_of "$run2" merge)
victim=""
start=$(date +%s)
while [ -z "$victim" ] && [ $(( $(date +%s) - start )) -lt 60 ]; do
  running=$(timeout 10 squeue -h -r -j "$a2" -t RUNNING -o %i 2>/dev/null)
  for task in $running; do
    k=$(( ${task#*_} + 1 ))
    n=$(rows "$run2/shard-$k-of-4/trials.csv")
    if [ "$n" -ge 1 ] && [ "$n" -le 4 ]; then   # of 6: one runs, one or two to go
      timeout 10 scancel "$task" && victim=$k
      break
    fi
  done
  sleep 0.1
done
check "cancelled shard $victim while it ran (job ${a2}_$((victim - 1)))" [ -n "$victim" ]
if wait_jobs "$a2,$m2" 90; then ok "jobs ended after the cancel"; else bad "jobs still queued after 90 s"; fi
"$BIN" status "$run2" >"$base/log/status2.out" 2>&1
rc=$?
line=$(grep "^$victim/4 " "$base/log/status2.out")
echo "$line" | grep -q 'unfinished.*CANCELLED' && seen=1 || seen=0
check "status: exit 1, shard $victim unfinished and CANCELLED" [ "$rc" -eq 1 -a -n "$victim" -a "$seen" = 1 ]
[ "$rc" -eq 1 ] || cat "$base/log/status2.out"
echo "  $line"
"$BIN" submit --resume "$run2" >"$base/log/resume.out" 2>&1
rc=$?
a3=$(jobs_of "$run2" array); m3=$(jobs_of "$run2" merge)
tasks=$(awk '$1=="array"{t=$3} END{print t}' "$run2/slurm-jobs.txt")
check "submit --resume: exit 0, only shard $victim again (job $a3, --array=$tasks)" \
  [ "$rc" -eq 0 -a "$a3" != "$a2" -a "$tasks" = "$((victim - 1))" ]
[ "$rc" -eq 0 ] || cat "$base/log/resume.out"
if wait_jobs "$a3,$m3" 90; then ok "resubmitted jobs ended"; else bad "resubmitted jobs still queued after 90 s"; fi
check "only that array task ran again (one log of job $a3)" [ "$(ls "$run2"/slurm-"$a3"_*.out 2>/dev/null | wc -l)" -eq 1 ]
"$BIN" status "$run2" >"$base/log/status3.out" 2>&1
rc=$?
line=$(grep "^$victim/4 " "$base/log/status3.out")
check "status after --resume: exit 0, shard $victim finished as job ${a3}_$((victim - 1))" \
  [ "$rc" -eq 0 -a -n "$(echo "$line" | grep " finished .*job ${a3}_$((victim - 1)): COMPLETED")" ]
echo "  $line"
wait "$local2"
check "merged trials.csv after --resume has every trial of the local run" \
  diff <(keys "$run2/trials.csv") <(keys "$base/local/slow/latest/trials.csv")
check "merged meta.json is finished" grep -q '"finished": true' "$run2/meta.json"
[ "$fail" -eq 0 ] || { cat "$base/log/status3.out"; show_logs "$run2"; }
finish
