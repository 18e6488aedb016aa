#!/bin/sh
# expect_run.sh STATUS REGEX COMMAND [ARGS...]
#
# Runs COMMAND and passes when it exits with status STATUS and its output
# (stdout and stderr together) has a line matching the extended regular
# expression REGEX; an empty REGEX accepts any output.  The output is shown
# either way, after the verdict on failure.
status=$1
regex=$2
shift 2
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
"$@" >"$out" 2>&1
got=$?
cat "$out"
if [ "$got" -ne "$status" ]; then
    echo "FAIL: exit status $got, expected $status"
    exit 1
fi
if [ -n "$regex" ] && ! grep -Eq -- "$regex" "$out"; then
    echo "FAIL: no line of the output matches /$regex/"
    exit 1
fi
exit 0
