#!/bin/sh
# Tests of xgasrun, one case per run:
#
#     launcher_test.sh XGASRUN LAUNCHER_PE CASE NPES
#
# LAUNCHER_PE is the PE program of launcher_pe.c.  Each case checks the exit
# status and the messages of xgasrun and that no PE process is left.  Waits
# for something to happen are bounded (60 s for PEs to start, 10 s for them
# to vanish after xgasrun is SIGKILLed); nothing is asserted about time.
# Exit 0: pass, 1: fail, 77: skip.

set -u

XGASRUN=$1
PE=$2
CASE=$3
NP=$4

TMP=$(mktemp -d "${TMPDIR:-/tmp}/xgasrun-test.XXXXXX") || exit 1
RUN_PID=
STATUS=

. "$(dirname "$0")/../tools/alive.sh"

# Ends what a failed case left running: only the processes it started.
cleanup() {
    if [ -n "$RUN_PID" ] && alive "$RUN_PID"; then
        kill -KILL "$RUN_PID"
    fi
    for file in "$TMP"/pe.*.pid "$TMP"/orphan.*.pid; do
        [ -f "$file" ] || continue
        pid=$(cat "$file")
        if alive "$pid"; then
            kill -KILL "$pid"
        fi
    done
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

fail() {
    echo "FAIL [$CASE, $NP PEs]: $*" >&2
    for stream in out err; do
        if [ -s "$TMP/$stream" ]; then
            echo "--- std$stream of xgasrun:" >&2
            head -c 4000 "$TMP/$stream" >&2
            echo >&2
        fi
    done
    exit 1
}

# run ARGS...: runs xgasrun to its end; sets STATUS.
run() {
    "$XGASRUN" "$@" >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
}

# start COMMAND...: starts xgasrun (maybe through env) in the background.
start() {
    "$@" >"$TMP/out" 2>"$TMP/err" &
    RUN_PID=$!
}

# finish: waits for the background xgasrun; sets STATUS.
finish() {
    wait "$RUN_PID"
    STATUS=$?
    RUN_PID=
}

expect_status() {
    [ "$STATUS" -eq "$1" ] || fail "exit status $STATUS, expected $1"
}

# expect_err_line TEXT: stderr has exactly this line.
expect_err_line() {
    grep -Fxq -- "$1" "$TMP/err" || fail "stderr lacks the line '$1'"
}

# expect_err_match REGEX: a line of stderr matches.
expect_err_match() {
    grep -Eq -- "$1" "$TMP/err" || fail "no line of stderr matches '$1'"
}

# expect_pe_message RANK TEXT: stderr has xgasrun's message on PE RANK.
expect_pe_message() {
    expect_err_line "xgasrun: PE $1 (pid $(pid_of "$1")) $2"
}

expect_no_err() {
    [ ! -s "$TMP/err" ] || fail "unexpected output on stderr"
}

expect_messages() {
    count=$(grep -c '^xgasrun:' "$TMP/err")
    [ "$count" -eq "$1" ] || fail "$count messages from xgasrun, expected $1"
}

pid_of() {
    cat "$TMP/pe.$1.pid"
}

pid_files() {
    ls "$TMP" | grep -c '^pe\.[0-9]*\.pid$'
}

expect_all_pid_files() {
    [ "$(pid_files)" -eq "$NP" ] || fail "$(pid_files) of $NP PEs started"
}

# wait_started: waits until every PE of the background xgasrun has written
# its pid file.
wait_started() {
    tries=600
    while [ "$(pid_files)" -lt "$NP" ]; do
        alive "$RUN_PID" || fail "xgasrun ended before its PEs started"
        tries=$((tries - 1))
        [ "$tries" -gt 0 ] || fail "only $(pid_files) of $NP PEs started"
        sleep 0.1
    done
}

# expect_gone [SECONDS]: no PE that wrote a pid file is alive, now or (with
# SECONDS) within that bound.
expect_gone() {
    tries=$((${1:-0} * 10))
    for file in "$TMP"/pe.*.pid; do
        [ -f "$file" ] || continue
        pid=$(cat "$file")
        while alive "$pid"; do
            [ "$tries" -gt 0 ] || fail "PE process $pid is still alive"
            tries=$((tries - 1))
            sleep 0.1
        done
    done
}

need_env_signals() {
    env --default-signal=INT --ignore-signal=HUP true 2>/dev/null || {
        echo "SKIP: env cannot set signal dispositions (coreutils < 8.31)"
        exit 77
    }
}

# A PE fails once all have started; xgasrun must end the others.
case_pe_failure() {
    run -n "$NP" "$PE" "$@" "$TMP"
    expect_all_pid_files
    expect_gone
}

# xgasrun gets SIGNAL (through COMMAND, which may set its dispositions)
# while every PE waits.
signal_job() {
    signal=$1
    shift
    start "$@" "$XGASRUN" -n "$NP" "$PE" wait "$TMP"
    wait_started
    for sig in $signal; do
        kill -s "$sig" "$RUN_PID"
    done
    finish
    # xgasrun ends its PEs before it exits -- unless it is SIGKILLed: then
    # the kernel's parent-death signal ends them, asynchronously
    case $signal in
    KILL) expect_gone 10 ;;
    *) expect_gone ;;
    esac
}

# expect_orphans_gone: the sleeps the PEs started (spawn) are gone --
# xgasrun ends and reaps them before it exits, so no wait is needed; one
# still alive, or left a zombie of init, is a failure.
expect_orphans_gone() {
    count=0
    for file in "$TMP"/orphan.*.pid; do
        [ -f "$file" ] || continue
        count=$((count + 1))
        pid=$(cat "$file")
        ! kill -0 "$pid" 2>/dev/null ||
            fail "process $pid that a PE started outlived the job"
    done
    [ "$count" -eq $((2 * NP)) ] || fail "$count of $((2 * NP)) sleeps started"
}

# crash MODE WHERE: PE 1 of the crashing program (launcher_crash.c) does
# MODE on one node (node), through the software NIC (nic) or across two
# virtual nodes (vnodes); the job must end, the PEs with it.
crash() {
    case $2 in
    node) set -- "$1" ;;
    nic) set -- "$1" XGAS_ROUTE=nic ;;
    vnodes) set -- "$1" XGAS_VIRTUAL_NODES=2 ;;
    *) fail "unknown place $2" ;;
    esac
    mode=$1
    shift
    env "$@" "$XGASRUN" -n "$NP" "$PE" "$mode" 1 "$TMP" \
        >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
    expect_all_pid_files
    expect_gone
}

# expect_crash SIG NAME: PE 1 was killed by signal SIG, and is named as the
# PE that ended the job.
expect_crash() {
    expect_status $((128 + $1))
    expect_pe_message 1 "was killed by signal $1 ($2); ending the job"
    [ "$(grep -c '^xgasrun: PE [0-9]* (pid [0-9]*) ' "$TMP/err")" -eq 1 ] ||
        fail "another PE is blamed too"
}

check_usage() {
    run "$@"
    expect_status 2
    expect_err_match '^xgasrun: '
    expect_err_match '^usage: xgasrun '
}

# The CPUs this script may run on, as /proc lists them ("0-3,6"); xgasrun
# started from here inherits them.
allowed_cpus() {
    sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status
}

# expect_pe_cpus RANK LIST: PE RANK printed that it may run on LIST.
expect_pe_cpus() {
    grep -qx "rank $1 cpus $2" "$TMP/out" ||
        fail "PE $1 does not run on cpus $2: $(grep "^rank $1 " "$TMP/out")"
}

# pe_cpus RANK: the CPU list PE RANK printed.
pe_cpus() {
    sed -n "s/^rank $1 cpus //p" "$TMP/out"
}

need_taskset() {
    command -v taskset >/dev/null 2>&1 || {
        echo "SKIP: taskset (util-linux) is not installed"
        exit 77
    }
}

case "$CASE" in
bind_default)
    # NP PEs on at least NP cores: each on a core of its own
    run -n "$NP" --report-bindings "$PE" affinity
    expect_status 0
    if grep -q 'oversubscribed' "$TMP/err"; then
        echo "SKIP: fewer than $NP cores here ($(allowed_cpus) allowed)"
        exit 77
    fi
    rank=0
    while [ "$rank" -lt "$NP" ]; do
        cpus=$(pe_cpus "$rank")
        [ -n "$cpus" ] || fail "PE $rank printed no CPUs"
        expect_err_match "^xgasrun: PE $rank on node 0: cpus $cpus \(bound to a core"
        first=${cpus%%[-,]*}
        siblings=$(cat "/sys/devices/system/cpu/cpu$first/topology/thread_siblings_list" 2>/dev/null)
        [ "$cpus" = "$first" ] || [ "$cpus" = "$siblings" ] ||
            fail "PE $rank runs on cpus $cpus, not on one core"
        [ "$(grep -c " cpus $cpus\$" "$TMP/out")" -eq 1 ] ||
            fail "PE $rank shares cpus $cpus with another PE"
        rank=$((rank + 1))
    done
    # within the mask the caller set: the last allowed CPU alone
    need_taskset
    last=$(allowed_cpus | tr ',' '\n' | tail -n 1)
    last=${last##*-}
    taskset -c "$last" "$XGASRUN" -n 1 "$PE" affinity >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
    expect_status 0
    expect_pe_cpus 0 "$last"
    ;;
bind_oversubscribed)
    # NP PEs restricted to one CPU: left unbound, and the report says why
    need_taskset
    first=$(allowed_cpus)
    first=${first%%[-,]*}
    taskset -c "$first" "$XGASRUN" -n "$NP" --report-bindings "$PE" affinity \
        >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
    expect_status 0
    rank=0
    while [ "$rank" -lt "$NP" ]; do
        expect_pe_cpus "$rank" "$first"
        expect_err_line "xgasrun: PE $rank on node 0: cpus $first (unbound: $NP PEs on 1 core of the 1 CPU xgasrun may use -- oversubscribed)"
        rank=$((rank + 1))
    done
    expect_messages "$NP"
    # asked for explicitly, a core binding that cannot be is an error
    taskset -c "$first" "$XGASRUN" -n "$NP" --bind-to core "$PE" affinity \
        >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
    expect_status 1
    expect_err_match "^xgasrun: --bind-to core needs a core per PE, but $NP PEs and only 1 core "
    ;;
bind_none)
    run -n "$NP" --bind-to none "$PE" affinity
    expect_status 0
    expect_no_err
    rank=0
    while [ "$rank" -lt "$NP" ]; do
        expect_pe_cpus "$rank" "$(allowed_cpus)"
        rank=$((rank + 1))
    done
    ;;
bind_numa)
    # every PE on all the allowed CPUs of one NUMA node
    run -n "$NP" --bind-to numa --report-bindings "$PE" affinity
    expect_status 0
    rank=0
    while [ "$rank" -lt "$NP" ]; do
        cpus=$(pe_cpus "$rank")
        expect_err_match "^xgasrun: PE $rank on node 0: cpus $cpus \(bound to (NUMA node [0-9]+|a NUMA node)\)$"
        rank=$((rank + 1))
    done
    ;;
bind_usage)
    check_usage -n "$NP" --bind-to bogus "$PE" affinity
    expect_err_line "xgasrun: invalid value 'bogus' of option '--bind-to': expected core, numa or none"
    check_usage -n "$NP" --bind-to
    expect_err_line "xgasrun: option '--bind-to' needs a value: core, numa or none"
    ;;
ranks)
    run -n "$NP" "$PE" ranks
    expect_status 0
    expect_no_err
    [ "$(wc -l <"$TMP/out")" -eq "$NP" ] || fail "expected $NP lines"
    rank=0
    while [ "$rank" -lt "$NP" ]; do
        grep -qx "rank $rank of $NP" "$TMP/out" || fail "no line of PE $rank"
        rank=$((rank + 1))
    done
    ;;
tag_output)
    run -n "$NP" --tag-output "$PE" lines
    expect_status 0
    : >"$TMP/expect_out"
    : >"$TMP/expect_err"
    rank=0
    while [ "$rank" -lt "$NP" ]; do
        for line in first second tail last; do
            echo "[$rank] out $rank $line" >>"$TMP/expect_out"
        done
        for line in first tail; do
            echo "[$rank] err $rank $line" >>"$TMP/expect_err"
        done
        long=$(grep "^\[$rank\] L" "$TMP/out" | sed "s/^\[$rank\] //" |
               tr -d '\n' | wc -c)
        [ "$long" -eq 40000 ] || fail "PE $rank: $long of 40000 L tagged"
        rank=$((rank + 1))
    done
    ! grep -qv '^\[[0-9]*\] ' "$TMP/out" "$TMP/err" || fail "an untagged line"
    grep -v '^\[[0-9]*\] L' "$TMP/out" | LC_ALL=C sort >"$TMP/got_out"
    LC_ALL=C sort "$TMP/err" >"$TMP/got_err"
    LC_ALL=C sort -o "$TMP/expect_out" "$TMP/expect_out"
    LC_ALL=C sort -o "$TMP/expect_err" "$TMP/expect_err"
    cmp -s "$TMP/got_out" "$TMP/expect_out" || fail "stdout lines differ"
    cmp -s "$TMP/got_err" "$TMP/expect_err" || fail "stderr lines differ"
    ;;
pe_exit)
    case_pe_failure exit 1 3
    expect_status 3
    expect_pe_message 1 "exited with status 3; ending the job"
    expect_messages 1
    ;;
pe_killed)
    case_pe_failure kill 2 9
    expect_status 137
    expect_pe_message 2 "was killed by signal 9 (Killed); ending the job"
    expect_messages 1
    ;;
no_finalize)
    case_pe_failure no-finalize 1
    expect_status 1
    expect_pe_message 1 \
        "exited without calling shmem_finalize; ending the job"
    expect_messages 1
    ;;
blame_cause)
    # PE 1 ends the job because PE 5 stopped answering, and PE 5 dies
    # after: PE 5 is named (the grace period is long: PE 5 ignores the
    # SIGTERM, and must die of its own fault)
    XGAS_RUN_GRACE_MS=60000 run -n "$NP" "$PE" consequence 1 5 "$TMP"
    expect_all_pid_files
    expect_gone
    expect_status 139
    expect_pe_message 5 "was killed by signal 11 (Segmentation fault); ending the job"
    expect_messages 1
    ;;
blame_order)
    # PE 6 dies, then PE 2; the launcher sees both at once: PE 6 is named
    run -n "$NP" "$PE" order 6 2 "$TMP"
    expect_all_pid_files
    expect_gone
    expect_status 139
    expect_pe_message 6 "was killed by signal 11 (Segmentation fault); ending the job"
    expect_messages 1
    ;;
global_exit)
    for code in 5 0; do
        rm -f "$TMP"/pe.*.pid
        case_pe_failure global-exit "$((NP - 1))" "$code"
        expect_status "$code"
        expect_no_err
    done
    ;;
sigkill)
    ls -A /dev/shm >"$TMP/shm.before" 2>/dev/null
    signal_job KILL
    expect_status 137
    ls -A /dev/shm >"$TMP/shm.after" 2>/dev/null
    new=$(comm -13 "$TMP/shm.before" "$TMP/shm.after")
    [ -z "$new" ] || fail "new in /dev/shm: $new"
    ;;
sigterm)
    signal_job TERM
    expect_status 143
    expect_err_line "xgasrun: received signal 15 (Terminated); ending the job"
    expect_messages 1
    ;;
sigint)
    # a background command of a script starts with SIGINT ignored, and
    # xgasrun keeps a signal ignored that its caller ignored
    need_env_signals
    signal_job INT env --default-signal=INT
    expect_status 130
    expect_err_line "xgasrun: received signal 2 (Interrupt); ending the job"
    expect_messages 1
    ;;
sighup_ignored)
    # as under nohup: SIGHUP changes nothing, the SIGTERM after it ends the
    # job (were SIGHUP handled, it would come first: lower number)
    need_env_signals
    signal_job "HUP TERM" env --ignore-signal=HUP
    expect_status 143
    expect_err_line "xgasrun: received signal 15 (Terminated); ending the job"
    expect_messages 1
    ;;
orphans)
    # every PE starts a sleep in its own session and a double-forked one,
    # then all exit 0: the job ends normally, and the sleeps with it
    run -n "$NP" "$PE" spawn 0 "$TMP"
    expect_status 0
    expect_no_err
    expect_orphans_gone
    # the same when the PEs fail and xgasrun ends the job
    rm -f "$TMP"/*.pid
    run -n "$NP" "$PE" spawn 3 "$TMP"
    expect_status 3
    expect_gone
    expect_orphans_gone
    ;;
usage)
    check_usage -n 0 "$PE" ranks
    check_usage -n -1 "$PE" ranks
    check_usage -n abc "$PE" ranks
    check_usage -n 4097 "$PE" ranks
    check_usage -n
    check_usage -n "$NP"
    check_usage "$PE" ranks
    check_usage --bogus -n "$NP" "$PE" ranks
    run --help
    expect_status 0
    grep -q '^usage: xgasrun ' "$TMP/out" || fail "--help prints no usage"
    run --version
    expect_status 0
    grep -Eq '^xgasrun .*[0-9]+\.[0-9]+\.[0-9]+$' "$TMP/out" ||
        fail "--version prints no version"
    ;;
program)
    run -n "$NP" xgas-no-such-program
    expect_status 127
    expect_err_line \
        "xgasrun: cannot run 'xgas-no-such-program': not found in PATH"
    run -n "$NP" "$TMP/none"
    expect_status 127
    expect_err_line "xgasrun: cannot run '$TMP/none': No such file or directory"
    printf '#!/bin/sh\n' >"$TMP/noexec"
    chmod 644 "$TMP/noexec"
    run -n "$NP" "$TMP/noexec"
    expect_status 126
    expect_err_line "xgasrun: cannot run '$TMP/noexec': Permission denied"
    run -n "$NP" "$TMP"
    expect_status 126
    # found in PATH; arguments pass through unchanged, after --
    run -np "$NP" -- sh -c 'echo "$XGAS_RANK:$1"' sh 'a  b'
    expect_status 0
    [ "$(grep -c ':a  b$' "$TMP/out")" -eq "$NP" ] || fail "arguments changed"
    run -n 1 sh -c 'exit 4'
    expect_status 4
    expect_err_match '^xgasrun: PE 0 \(pid [0-9]+\) exited with status 4$'
    ;;
crash_abort_*)
    crash abort "${CASE#crash_abort_}"
    expect_crash 6 Aborted
    ;;
crash_segv_* | crash_thread_* | crash_progress_*)
    mode=${CASE#crash_}
    crash "${mode%_*}" "${mode##*_}"
    expect_crash 11 "Segmentation fault"
    ;;
crash_exit_handler_*)
    # the fault's handler calls exit(1) on the faulting thread -- with
    # XGAS_ROUTE=nic the progress thread, whose exit handlers must not wait
    # for that thread itself
    crash exit_handler "${CASE#crash_exit_handler_}"
    expect_status 1
    expect_pe_message 1 "exited with status 1; ending the job"
    ;;
crash_startup_*)
    # PE 1 fails before shmem_init while the others, in it, turn the
    # launcher's SIGTERM into exit(1): they must end at once (the grace
    # period is long, so that only a PE stuck in its exit handlers would
    # outlast it)
    XGAS_RUN_GRACE_MS=600000 crash startup "${CASE#crash_startup_}"
    expect_status 3
    expect_pe_message 1 "exited with status 3; ending the job"
    # the others may already wait in the start-up exchange for PE 1, and
    # the report of where they are says so; it is the only other message
    grep -v -e '^xgasrun: where the other PEs are:$' -e '^xgasrun:   ' \
        "$TMP/err" >"$TMP/err.own"
    count=$(grep -c '^xgasrun:' "$TMP/err.own")
    [ "$count" -eq 1 ] || fail "$count messages besides the report, expected 1"
    if grep '^xgasrun:   PE [0-9]* (pid' "$TMP/err" |
        grep -v -e 'blocked in xgas start-up exchange' -e 'running user code' |
        grep -q .; then
        fail "the report names a PE past start-up"
    fi
    ;;
global_exit_quiet_*)
    # a job ended on purpose prints no error, on no PE
    crash global_exit "${CASE#global_exit_quiet_}"
    expect_status 0
    expect_no_err
    ;;
dispositions)
    # a singleton, without IPATH_NO_BACKTRACE from a launcher
    env -u IPATH_NO_BACKTRACE "$PE" dispositions >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
    [ "$STATUS" -ne 77 ] || { cat "$TMP/out"; exit 77; }
    expect_status 0
    ;;
dispositions_vnodes)
    # PEs of two virtual nodes load libfabric in shmem_init (libxgas loads
    # it on first use), without IPATH_NO_BACKTRACE (the PEs unset it)
    XGAS_VIRTUAL_NODES=2 "$XGASRUN" -n "$NP" "$PE" dispositions \
        >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
    [ "$STATUS" -ne 77 ] || { cat "$TMP/out"; exit 77; }
    expect_status 0
    ;;
*)
    fail "unknown case"
    ;;
esac
exit 0
