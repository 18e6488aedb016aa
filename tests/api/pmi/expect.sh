#!/bin/sh
# expect.sh STATUS REGEX COMMAND [ARGS...]
#
# Runs COMMAND and passes when it exits with STATUS and a line of its
# stderr matches the extended regular expression REGEX (the PMI negative
# tests: a bad call returns its code and prints why; PMI_Abort ends the job
# with its exit code).  Its stderr is shown either way.  That it finishes at
# all is checked by the CTest timeout.
want=$1
regex=$2
shift 2
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
"$@" 2>"$err"
status=$?
cat "$err" >&2
if [ "$status" -ne "$want" ]; then
    echo "FAIL: exit status $status, expected $want"
    exit 1
fi
if ! grep -Eq -- "$regex" "$err"; then
    echo "FAIL: no line of stderr matches /$regex/"
    exit 1
fi
echo "PASS: exit status $status, stderr matches /$regex/"
exit 0
