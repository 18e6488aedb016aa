#!/bin/sh
# armci_run.sh MPIRUN EXPECT REGEX NP PROG [ARGS...]
#
# Runs an ARMCI program (an MPI program) under mpirun with NP processes.
# EXPECT "pass": exit status 0 and a line matching REGEX; "fail": a
# non-zero status that is not a crash (a signal) and a line of the output
# matching REGEX -- a diagnosis; a number: exactly that status and REGEX.
# Skips (77) when mpirun is missing.  As root, mpirun needs the
# --allow-run-as-root variables; --oversubscribe runs more processes than
# cores, and mpi_yield_when_idle lets MPI's waits give the CPU to xgas's
# progress threads.  "ADDR" in REGEX stands for a printed address.
mpirun=$1
expect=$2
regex=$(printf '%s' "$3" | sed 's/ADDR/0x[0-9a-f]+/g')
np=$4
shift 4
case $mpirun in
"" | *NOTFOUND)
    echo "SKIPPED: mpirun was not found (Debian: apt-get install openmpi-bin)"
    exit 77
    ;;
esac
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
"$mpirun" --oversubscribe --mca mpi_yield_when_idle 1 -n "$np" "$@" \
    >"$out" 2>&1
got=$?
cat "$out"
case $expect in
pass)
    [ "$got" -eq 0 ] || { echo "FAIL: exit status $got"; exit 1; } ;;
fail)
    if [ "$got" -eq 0 ]; then
        echo "FAIL: the bad call was accepted (exit status 0)"
        exit 1
    fi
    if [ "$got" -ge 126 ]; then
        echo "FAIL: exit status $got: killed, not a diagnosis"
        exit 1
    fi
    ;;
*)
    [ "$got" -eq "$expect" ] ||
        { echo "FAIL: exit status $got, expected $expect"; exit 1; } ;;
esac
if [ -n "$regex" ] && ! grep -Eq -- "$regex" "$out"; then
    echo "FAIL: no line of the output matches /$regex/"
    exit 1
fi
echo "PASS"
