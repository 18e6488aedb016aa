#!/bin/sh
# Tests of xgasrun --pvas (tools/pvas/), one case per run:
#
#     pvas_test.sh XGASRUN PE CASE NPES
#
# PE is pvas_pe.c built as a static or a dynamic PIE (or, for the case
# nonpie, as an ordinary executable).  Each case checks xgasrun's exit
# status and messages, and that no PE is left.  Waits back off and have no
# deadline of their own: the CTest timeout bounds them.  Nothing is
# asserted about time.  Exit 0: pass, 1: fail, 77: skip.

set -u

XGASRUN=$1
PE=$2
CASE=$3
NP=$4
HERE=$(dirname "$0")

TMP=$(mktemp -d "${TMPDIR:-/tmp}/pvas-test.XXXXXX") || exit 1
RUN_PID=
export PVAS_TEST_DIR="$TMP"

. "$HERE/../tools/alive.sh"

cleanup() {
    if [ -n "$RUN_PID" ] && alive "$RUN_PID"; then
        kill -KILL "$RUN_PID"
    fi
    for file in "$TMP"/pe.*.pid; do
        [ -f "$file" ] || continue
        pid=$(cat "$file")
        if alive "$pid"; then
            kill -KILL "$pid"
        fi
    done
    rm -rf "$TMP"
}
trap cleanup EXIT

fail() {
    echo "FAIL: $*"
    [ -f "$TMP/err" ] && sed 's/^/  stderr: /' "$TMP/err"
    exit 1
}

# backoff: sleeps a little longer each call (0.01 s doubling up to 0.5 s)
DELAY=10
backoff() {
    sleep "$(printf '0.%03d' "$DELAY")" 2>/dev/null || sleep 1
    DELAY=$((DELAY * 2))
    [ "$DELAY" -gt 500 ] && DELAY=500
}

# run ARGS...: xgasrun --pvas -n NP PE ARGS..., stdout in $TMP/out, stderr
# in $TMP/err, exit status in $STATUS.
run() {
    "$XGASRUN" --pvas -n "$NP" "$PE" "$@" >"$TMP/out" 2>"$TMP/err"
    STATUS=$?
}

# start_waiting_job: a job of PEs that wait forever, in the background
# (RUN_PID), once every PE has written its pid file.
start_waiting_job() {
    "$XGASRUN" --pvas -n "$NP" "$PE" wait >"$TMP/out" 2>"$TMP/err" &
    RUN_PID=$!
    while [ "$(ls "$TMP" | grep -c '^pe\..*\.pid$')" -lt "$NP" ]; do
        alive "$RUN_PID" || fail "xgasrun exited before its PEs started"
        backoff
    done
}

expect_status() {
    [ "$STATUS" -eq "$1" ] || fail "exit status $STATUS, expected $1"
}

expect_err() {
    grep -Eq -- "$1" "$TMP/err" || fail "no line of stderr matches /$1/"
}

case $CASE in
hello)
    run hello
    expect_status 0
    count=$(grep -c "^pvas pe [0-9]* of $NP ok$" "$TMP/out")
    [ "$count" -eq "$NP" ] || fail "$count of $NP PEs said ok"
    ;;
tunables)
    # ld.so's hwcaps parser reads one past the end of the environment
    # string; the copy's stack must end as the kernel's (a zero word above
    # the strings), or it reads past the top of the stack mapping
    GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F run hello
    expect_status 0
    count=$(grep -c "^pvas pe [0-9]* of $NP ok$" "$TMP/out")
    [ "$count" -eq "$NP" ] || fail "$count of $NP PEs said ok"
    ;;
fork)
    run fork
    expect_status 0
    count=$(grep -c "^pvas pe [0-9]* of $NP ok$" "$TMP/out")
    [ "$count" -eq "$NP" ] || fail "$count of $NP PEs said ok"
    ;;
tag_output)
    "$XGASRUN" --pvas --tag-output -n "$NP" "$PE" hello >"$TMP/out" \
        2>"$TMP/err"
    STATUS=$?
    expect_status 0
    rank=0
    while [ "$rank" -lt "$NP" ]; do
        grep -q "^\[$rank\] pvas pe $rank of $NP ok$" "$TMP/out" ||
            fail "no tagged line of PE $rank"
        rank=$((rank + 1))
    done
    ;;
sigterm)
    # xgasrun ends the job on SIGTERM: every PE gone, status 128 + 15
    start_waiting_job
    kill -TERM "$RUN_PID"
    wait "$RUN_PID"
    STATUS=$?
    expect_status 143
    expect_err "received signal 15 \(Terminated\); ending the job"
    for file in "$TMP"/pe.*.pid; do
        alive "$(cat "$file")" && fail "PE $(cat "$file") is still running"
    done
    ;;
exit)
    run exit
    expect_status 3
    expect_err "PE 1 \(pid [0-9]+\) exited with status 3"
    ;;
segv)
    run segv
    expect_status 139
    expect_err "PE 2 \(pid [0-9]+\) was killed by signal 11"
    ;;
nonpie)
    run hello
    expect_status 1
    expect_err "not a position-independent executable.*-fPIE -pie"
    ;;
script)
    # a script runs conventionally only: there is no ELF image to load
    printf '#!/bin/sh\nexit 0\n' >"$TMP/prog.sh"
    chmod +x "$TMP/prog.sh"
    PE=$TMP/prog.sh
    run
    expect_status 1
    expect_err "prog.sh' is not an ELF executable: --pvas runs compiled programs only"
    ;;
sanitizer)
    run hello
    expect_status 1
    expect_err "is built with a sanitizer \(it needs libasan[^)]*\).*run it without --pvas"
    ;;
big)
    XGAS_PVAS_SEGMENT_SIZE=16M run big
    expect_status 1
    expect_err "more than the upper half of XGAS_PVAS_SEGMENT_SIZE=16 MiB: raise"
    ;;
range_taken)
    # where Linux puts a PIE (xgasrun, whose fork is the root) and its
    # break: 0x5555... plus up to 1 TiB of randomization
    if ! od -An -tx1 -j16 -N1 "$XGASRUN" | grep -q 03; then
        echo "SKIP: xgasrun is not a PIE"
        exit 77
    fi
    XGAS_SYMMETRIC_BASE=0x550000000000 XGAS_PVAS_SEGMENT_SIZE=1T run hello
    expect_status 1
    expect_err "node range 0x550000000000-0x570000000000 .* is already in use, by .*xgasrun.*: choose another XGAS_SYMMETRIC_BASE"
    ;;
map_count)
    max=$(cat /proc/sys/vm/max_map_count)
    # 4096 copies of this program need about 4096 x 46 mappings: only
    # below that is the refusal what happens (else it would run them)
    [ "$max" -le 150000 ] || { echo "SKIP: vm.max_map_count=$max"; exit 77; }
    XGAS_PVAS_SEGMENT_SIZE=1G run hello
    expect_status 1
    expect_err "more than vm.max_map_count=$max: run at most [0-9]+ PEs"
    ;;
sigkill)
    # xgasrun SIGKILLed: PR_SET_PDEATHSIG ends every copy
    start_waiting_job
    kill -KILL "$RUN_PID"
    wait "$RUN_PID" 2>/dev/null
    DELAY=10
    for file in "$TMP"/pe.*.pid; do
        pid=$(cat "$file")
        while alive "$pid"; do
            backoff
        done
    done
    ;;
*)
    echo "unknown case $CASE"
    exit 1
    ;;
esac
echo "PASS: $CASE with $NP PEs"
exit 0
