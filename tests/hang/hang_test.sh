#!/bin/sh
# Tests of "never hang silently", one case per run:
#
#     hang_test.sh XGASRUN HANG_PE CASE NPES [LAUNCH MPIRUN HAVE_PMIX]
#
# HANG_PE is the program of hang_pe.c.  Each case checks the exit status of
# the launcher and the messages (or the PEs').  XGAS_HANG_TIMEOUT is 2 s so
# that a deadlock ends soon, but nothing is asserted about time: only that
# the job ends, how, and with which report.  Waits of the script are
# bounded (the ctest timeout ends the rest).  Exit 0: pass, 1: fail,
# 77: skipped.
#
# LAUNCH is xgasrun (the default), mpirun (Open MPI's mpirun MPIRUN on one
# node: the hang watch is then the node watcher of the first PE,
# src/boot/node_watch.c) or nodes (mpirun over two nodes of this machine,
# as tests/pmix/pmix_test.sh makes them).

set -u

XGASRUN=$1
PE=$2
CASE=$3
NP=$4
LAUNCH=${5:-xgasrun}
MPIRUN=${6:-}
WHO=xgasrun
if [ "$LAUNCH" != xgasrun ]; then
    if [ "${7:-}" != ON ]; then
        echo "SKIPPED: this xgas build has no PMIx boot backend"
        exit 77
    fi
    case $MPIRUN in
    "" | *NOTFOUND)
        echo "SKIPPED: mpirun was not found (Debian: apt-get install" \
             "openmpi-bin)"
        exit 77
        ;;
    esac
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    WHO="xgas hang watch"
    if [ "$LAUNCH" = nodes ]; then
        WHO="xgas hang watch, node [0-9]+"
    fi
fi

TMP=$(mktemp -d "${TMPDIR:-/tmp}/xgas-hang-test.XXXXXX") || exit 1
RUN_PID=
STATUS=
HOGS=

cleanup() {
    if [ -n "$HOGS" ]; then
        kill $HOGS 2>/dev/null
    fi
    if [ -n "$RUN_PID" ] && kill -0 "$RUN_PID" 2>/dev/null; then
        kill -KILL "$RUN_PID"
    fi
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

fail() {
    echo "FAIL [$CASE, $NP PEs]: $*" >&2
    for stream in out err; do
        if [ -s "$TMP/$stream" ]; then
            echo "--- std$stream:" >&2
            head -c 6000 "$TMP/$stream" >&2
            echo >&2
        fi
    done
    exit 1
}

# launch ARGS...: runs ARGS on NP PEs through the launcher of LAUNCH (in
# a subshell that sets EXEC=exec, the launcher replaces the subshell, so
# that $! is the launcher's pid).
EXEC=
launch() {
    case $LAUNCH in
    xgasrun)
        $EXEC "$XGASRUN" -n "$NP" "$@"
        ;;
    mpirun)
        $EXEC "$MPIRUN" --oversubscribe -n "$NP" "$@"
        ;;
    nodes)
        $EXEC "$MPIRUN" --oversubscribe \
            --mca plm_rsh_agent "$(dirname "$0")/../pmix/local_rsh.sh" \
            --host "$(hostname):$((NP / 2)),xgas-other-node:$((NP - NP / 2))" \
            -n "$NP" "$@"
        ;;
    esac
}

# run CASE: runs the job to its end; sets STATUS.
run() {
    XGAS_HANG_TIMEOUT=2 launch "$PE" "$1" "$TMP" >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
}

# start CASE [TIMEOUT]: starts the job in the background (hang timeout
# TIMEOUT seconds, else the default); finish waits for its end.
start() {
    (
        EXEC=exec
        if [ -n "${2:-}" ]; then
            export XGAS_HANG_TIMEOUT="$2"
        fi
        launch "$PE" "$1" "$TMP"
    ) >"$TMP/out" 2>"$TMP/err" &
    RUN_PID=$!
}

# finish: lets the PEs go on (they wait for $TMP/go) and waits for the end.
finish() {
    touch "$TMP/go"
    wait "$RUN_PID"
    STATUS=$?
    RUN_PID=
}

expect_failure() {
    [ "$STATUS" -ne 0 ] || fail "the job ended with status 0"
}

expect_success() {
    [ "$STATUS" -eq 0 ] || fail "the job ended with status $STATUS"
}

# expect REGEX [WHAT]: stderr has a line matching REGEX (extended).
expect() {
    grep -Eq -- "$1" "$TMP/err" || fail "no line matching '$1' on stderr"
}

# expect_not REGEX: stderr has no line matching REGEX.
expect_not() {
    if grep -Eq -- "$1" "$TMP/err"; then
        fail "a line matches '$1' on stderr"
    fi
}

# expect_pes FIRST REGEX: the report has a line "PE r (pid n): REGEX" for
# every PE r from FIRST on.
expect_pes() {
    rank=$1
    while [ "$rank" -lt "$NP" ]; do
        expect "$WHO:   PE $rank \(pid [0-9]+\): $2"
        rank=$((rank + 1))
    done
}

# wait_for FILE: waits (bounded: 60 s) until FILE exists.
wait_for() {
    i=0
    while [ ! -e "$1" ]; do
        i=$((i + 1))
        [ "$i" -le 600 ] || fail "$1 did not appear"
        sleep 0.1
    done
}

# wait_for_err REGEX WHAT: waits (bounded: 60 s) until stderr has a line
# matching REGEX (extended); fails saying WHAT did not happen.
wait_for_err() {
    i=0
    until grep -Eq -- "$1" "$TMP/err"; do
        i=$((i + 1))
        [ "$i" -le 600 ] || fail "$2"
        sleep 0.1
    done
}

# pe_pid RANK: prints the pid of PE RANK of the running job, from the
# SIGUSR1 reports of the hang watch (bounded: 60 s).
pe_pid() {
    pid=
    i=0
    while [ -z "$pid" ]; do
        i=$((i + 1))
        [ "$i" -le 600 ] || fail "no report naming PE $1's pid"
        kill -USR1 "$RUN_PID"
        sleep 0.1
        pid=$(sed -n "s/^$WHO:   PE $1 (pid \([0-9]*\)).*/\1/p" "$TMP/err" |
              head -n 1)
    done
    echo "$pid"
}

LEFT="has called (shmem_finalize|exit\(\) \(or returned from main\), which finalizes,) while this PE \(PE [0-9]+\) still waits in a call PE [0-9]+ takes part in"
DEADLOCK="$WHO: every PE still running has been blocked in xgas for 2 s without progress \(XGAS_HANG_TIMEOUT\): the job is deadlocked; ending it"

case $CASE in
exit_early)
    run exit_early
    expect_failure
    last=$((NP - 1))
    expect "shmem_barrier_all: PE $last has called exit\(\) \(or returned from main\), which finalizes, while this PE \(PE [0-9]+\) still waits in a call PE $last takes part in \(barrier"
    expect "xgasrun: PE [0-9]+ \(pid [0-9]+\) exited with status 1; ending the job"
    expect "xgasrun: where the other PEs are:"
    ;;
finalize_early)
    run finalize_early
    expect_failure
    expect "shmem_barrier_all: PE 0 has called shmem_finalize while this PE \(PE [1-9][0-9]*\) still waits in a call PE 0 takes part in \(barrier, collective #[0-9]+ on SHMEM_TEAM_WORLD"
    expect "the PEs called different sequences of collective routines"
    expect "xgasrun: PE [1-9][0-9]* \(pid [0-9]+\) exited with status 1"
    ;;
extra_barrier)
    run extra_barrier
    expect_failure
    expect "shmem_barrier_all: PE [1-9][0-9]* $LEFT \(barrier"
    expect "this PE \(PE 0\)"
    expect "$WHO:   PE [1-9][0-9]* \(pid [0-9]+\): .*shmem_finalize"
    ;;
malloc_one)
    run malloc_one
    expect_failure
    expect "PE [1-9][0-9]* $LEFT \(barrier"
    expect "this PE \(PE 0\)"
    ;;
finalize_vs_coll)
    run finalize_vs_coll
    expect_failure
    expect "shmem_long_sum_reduce: PE 0 has called shmem_finalize while this PE \(PE [1-9][0-9]*\) still waits in a call PE 0 takes part in \(reduction"
    ;;
aset_vs_finalize)
    run aset_vs_finalize
    expect_failure
    expect "PE 0 has called shmem_finalize while this PE \(PE [1-9][0-9]*\) still waits in a call PE 0 takes part in \(barrier over the active set of $NP PEs from PE 0, stride 1"
    ;;
threads)
    # every PE blocks, but PE 0 runs a second thread that releases them
    # once the watch has reported: the job must end normally
    start threads 1
    i=0
    until grep -Eq "runs [0-9]+ threads, one of which may still end the wait: not ending the job" "$TMP/err"; do
        i=$((i + 1))
        [ "$i" -le 1200 ] || fail "no report of the blocked job"
        kill -0 "$RUN_PID" 2>/dev/null || fail "the job ended early"
        sleep 0.1
    done
    finish
    expect_success
    expect_not "deadlocked"
    ;;
wait_deadlock)
    run wait_deadlock
    expect_failure
    expect "$DEADLOCK"
    expect_pes 0 "blocked in shmem_long_wait_until: waiting until \*0x[0-9a-f]+ \(long\) == 5 \[wait [0-9]+, initialized\]"
    ;;
wait_vs_finalize)
    run wait_vs_finalize
    expect_failure
    expect "$DEADLOCK"
    expect "$WHO:   PE 0 \(pid [0-9]+\): blocked in shmem_finalize: finalize: waiting for the other PEs to call shmem_finalize \(1 of $NP have\)"
    expect "$WHO:   PE 1 \(pid [0-9]+\): blocked in shmem_long_wait_until: waiting until \*0x[0-9a-f]+ \(long\) != 0"
    ;;
lock_deadlock)
    run lock_deadlock
    expect_failure
    expect "$DEADLOCK"
    expect "$WHO:   PE 0 \(pid [0-9]+\): blocked in shmem_long_wait_until.*\]; holds the lock that PE [1-9][0-9]*(, PE [1-9][0-9]*)* waits? for\$"
    expect_pes 1 "blocked in shmem_set_lock: waiting for PE [0-9]+ to pass on the lock at 0x[0-9a-f]+ .*\]; the lock is held by PE 0(;|\$)"
    ;;
eq_deadlock)
    run eq_deadlock
    expect_failure
    expect "$DEADLOCK"
    expect_pes 0 "blocked in PtlEQWait: waiting for an event on event queue 0x[0-9a-f]+ \[wait [0-9]+"
    ;;
ct_deadlock)
    run ct_deadlock
    expect_failure
    expect "$DEADLOCK"
    expect_pes 0 "blocked in PtlCTWait: waiting until counter 0x[0-9a-f]+ reaches 1 \(now 0 success \+ 0 failure\) \[wait [0-9]+"
    ;;
pmi_deadlock)
    run pmi_deadlock
    expect_failure
    expect "$DEADLOCK"
    expect "$WHO:   PE 0 \(pid [0-9]+\): blocked in PtlEQWait: waiting for an event on event queue"
    expect_pes 1 "blocked in PMI_Barrier: the job's fence #[0-9]+: waiting for the other PEs to arrive \([0-9]+ of $NP have\) \[wait [0-9]+"
    ;;
fork_child)
    # Each PE starts a child program before shmem_init; once every PE has
    # joined, xgasrun is killed (SIGKILL): the PEs end with it, and no
    # child may hold a descriptor of the job's memfds (the memory must be
    # freed however the job ends).
    start fork_child 0
    rank=0
    while [ "$rank" -lt "$NP" ]; do
        wait_for "$TMP/init.$rank"
        rank=$((rank + 1))
    done
    kill -KILL "$RUN_PID"
    wait "$RUN_PID"
    RUN_PID=
    HOGS=$(cat "$TMP/children") # ended by cleanup
    held=
    for child in $HOGS; do
        if ls -l "/proc/$child/fd" 2>/dev/null | grep -q "memfd:xgas"; then
            held="$held $child"
        fi
    done
    [ -z "$held" ] || fail "children of PEs started before shmem_init hold the job's memfds:$held"
    ;;
loaded)
    # A deadlock must be proven however seldom a PE runs: beside CPU hogs,
    # PE 1 is kept from running (SIGSTOP) for 1.2 s at a time and let run
    # for 50 ms in between, so no two looks of xgasrun 500 ms apart in a
    # row see it run.  The job must still be ended as deadlocked.
    for hog in 1 2 3 4; do
        sh -c 'while :; do :; done' &
        HOGS="$HOGS $!"
    done
    start loaded 2
    i=0
    until [ -s "$TMP/pid.1" ]; do
        i=$((i + 1))
        [ "$i" -le 600 ] || fail "PE 1 wrote no pid"
        sleep 0.1
    done
    pid=$(cat "$TMP/pid.1")
    # PE 1 enters its wait in one of the short windows
    kill -STOP "$pid"
    touch "$TMP/go"
    while kill -0 "$RUN_PID" 2>/dev/null; do
        kill -STOP "$pid" 2>/dev/null
        sleep 1.2
        kill -CONT "$pid" 2>/dev/null
        sleep 0.05
    done
    kill $HOGS
    HOGS=
    wait "$RUN_PID"
    STATUS=$?
    RUN_PID=
    expect_failure
    expect "$DEADLOCK"
    expect "$WHO:   PE 1 \(pid [0-9]+\): (blocked in shmem_long_wait_until|stopped)"
    ;;
reinit)
    run reinit
    expect_success
    expect_not "shmem_finalize while"
    ;;
compute)
    # PE 0 computes while the others wait in a barrier for far longer than
    # the hang timeout: the job must not be ended.  The script lets PE 0
    # go after it has seen the others blocked for several timeouts (the
    # launcher's SIGUSR1 report shows them), bounded by 60 tries.
    start compute 1
    wait_for "$TMP/started"
    sleep 1
    i=0
    seen=0
    while [ "$i" -lt 60 ] && [ "$seen" -lt 5 ]; do
        kill -USR1 "$RUN_PID" 2>/dev/null || break
        sleep 1
        if grep -Eq "$WHO:   PE 1 \(pid [0-9]+\): blocked in shmem_barrier_all" "$TMP/err"; then
            seen=$((seen + 1))
        fi
        i=$((i + 1))
    done
    finish
    expect_success
    expect_not "deadlocked"
    [ "$seen" -ge 1 ] || fail "the SIGUSR1 report never showed PE 1 blocked"
    expect "$WHO: SIGUSR1: state of the PEs at the last look:"
    expect "$WHO:   PE 0 \(pid [0-9]+\): running user code, initialized"
    ;;
stopped)
    # PE 1 waits in a barrier while PE 0 computes; SIGSTOPped, PE 1 must be
    # reported as stopped, not as running user code, and the job must not
    # be ended; after SIGCONT it ends normally.
    start compute 1
    wait_for "$TMP/started"
    pid=$(pe_pid 1) || exit 1
    kill -STOP "$pid"
    i=0
    until grep -Eq "$WHO:   PE 1 \(pid $pid\): stopped \(SIGSTOP or a debugger\), initialized" "$TMP/err"; do
        i=$((i + 1))
        if [ "$i" -gt 600 ]; then
            kill -CONT "$pid"
            fail "PE 1 was never reported as stopped"
        fi
        kill -USR1 "$RUN_PID"
        sleep 0.1
    done
    sleep 3 # longer than the hang timeout: the job must go on
    kill -0 "$RUN_PID" 2>/dev/null || fail "the job ended while PE 1 was stopped"
    kill -CONT "$pid"
    finish
    expect_success
    expect_not "deadlocked"
    ;;
sigusr1)
    # SIGUSR1 only prints: the job then ends normally.
    start compute
    wait_for "$TMP/started"
    kill -USR1 "$RUN_PID"
    wait_for_err "SIGUSR1: state of the PEs" "no report after SIGUSR1"
    finish
    expect_success
    expect_pes 0 ""
    ;;
nodes_deadlock)
    # Over two nodes each node's watch sees its own PEs only: once they are
    # all blocked it reports them but leaves the job running, since a PE of
    # the other node might still end their wait.  SIGTERM then ends it.
    [ "$LAUNCH" = nodes ] || fail "runs over two nodes only"
    start wait_deadlock 2
    for node in 0 1; do
        wait_for_err "^xgas hang watch, node $node: every PE of this node has been blocked in xgas for 2 s" \
            "node $node's watch reported nothing"
    done
    kill -0 "$RUN_PID" 2>/dev/null || fail "the job ended"
    kill -TERM "$RUN_PID"
    wait "$RUN_PID"
    RUN_PID=
    rank=0
    while [ "$rank" -lt "$NP" ]; do
        node=$((rank * 2 / NP))
        expect "^xgas hang watch, node $node:   PE $rank \(pid [0-9]+\): blocked in shmem_long_wait_until"
        rank=$((rank + 1))
    done
    expect_not "deadlocked; ending it"
    ;;
*)
    fail "unknown case"
    ;;
esac
exit 0
