#!/bin/sh
# slurm_test.sh [--fails REGEX] NP PROG [ARGS...]
#
# `srun --mpi=pmix -n NP PROG ARGS` on a Slurm cluster of this one host,
# made for the test: a private slurm.conf (no authentication: auth/none,
# cred/none; ports and directories of its own, its TmpFS too: the PMIx
# plugin keeps a directory per step there, and one a killed step left in
# /tmp fails every later job of the same step id), slurmctld and slurmd
# started here and stopped at the end, whatever happens.  NP may exceed
# the CPUs (srun --overcommit).  Passes when the job exits 0 and every PE
# says it joined through pmix (XGAS_LOG=info) -- with --fails, when the
# job fails and a line of its output matches REGEX (extended).  Skips
# (77, saying why) when Slurm (slurmctld, slurmd, srun), its PMIx plugin
# or root is missing, or the daemons do not come up.
fails=
if [ "$1" = --fails ]; then
    fails=$2
    shift 2
fi
np=$1
shift
skip() {
    echo "SKIPPED: $*"
    exit 77
}
for tool in slurmctld slurmd srun sinfo; do
    command -v "$tool" >/dev/null 2>&1 ||
        skip "$tool not found (Debian: apt-get install slurmd slurmctld slurm-client)"
done
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root here (uid $(id -u))"
dir=$(mktemp -d) || exit 1
pids=""
cleanup() {
    for pid in $pids; do
        kill "$pid" 2>/dev/null
    done
    for pid in $pids; do
        wait "$pid" 2>/dev/null
    done
    rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP
port=$((20000 + $$ % 20000))
host=$(hostname)
cpus=$(nproc)
mkdir -p "$dir/state" "$dir/spool" "$dir/tmp"
cat >"$dir/slurm.conf" <<CONF
ClusterName=xgas$$
SlurmctldHost=$host
AuthType=auth/none
CredType=cred/none
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
TmpFS=$dir/tmp
SlurmctldPidFile=$dir/ctld.pid
SlurmdPidFile=$dir/d.pid
SlurmctldLogFile=$dir/ctld.log
SlurmdLogFile=$dir/d.log
ProctrackType=proctrack/pgid
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SlurmUser=root
SlurmdUser=root
NodeName=$host CPUs=$cpus State=UNKNOWN
PartitionName=xgas Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
srun --mpi=list 2>/dev/null | grep -q pmix ||
    skip "this Slurm has no PMIx plugin (srun --mpi=list)"
slurmctld -D >"$dir/ctld.out" 2>&1 &
pids="$pids $!"
slurmd -D >"$dir/d.out" 2>&1 &
pids="$pids $!"
tries=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then
        cat "$dir/ctld.out" "$dir/d.out" "$dir/ctld.log" "$dir/d.log" \
            2>/dev/null | tail -20
        skip "the test's slurmctld and slurmd did not come up"
    fi
    sleep 0.2
done
XGAS_LOG=info srun --mpi=pmix --overcommit -n "$np" "$@" >"$dir/out" 2>&1
status=$?
cat "$dir/out"
if [ -n "$fails" ]; then
    [ "$status" -ne 0 ] || { echo "FAIL: the job ended with status 0"; exit 1; }
    grep -Eq -- "$fails" "$dir/out" || {
        echo "FAIL: no line matches '$fails'"
        exit 1
    }
    echo PASS
    exit 0
fi
[ "$status" -eq 0 ] || exit 1
joined=$(grep -Ec "PE [0-9]+ of $np joined through pmix" "$dir/out")
if [ "$joined" -ne "$np" ]; then
    echo "FAIL: $joined of $np PEs joined through the PMIx backend"
    exit 1
fi
echo PASS
