#!/bin/sh
# expect_failure.sh REGEX COMMAND [ARGS...]
#
# Runs COMMAND (e.g. `xgasrun -n 2 bad_input put_stack`) and passes when it
# fails cleanly: a non-zero exit status that is not a signal's (a crash is
# not a diagnosis) and a line of its stderr matching the extended regular
# expression REGEX.  Its stderr is shown either way.  That it finishes at
# all is checked by the CTest timeout.
regex=$1
shift
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
"$@" 2>"$err"
status=$?
cat "$err" >&2
if [ "$status" -eq 0 ]; then
    echo "FAIL: the bad input was accepted (exit status 0)"
    exit 1
fi
if [ "$status" -ge 126 ]; then
    echo "FAIL: exit status $status: killed or not run, not a diagnosis"
    exit 1
fi
if ! grep -Eq -- "$regex" "$err"; then
    echo "FAIL: no line of stderr matches /$regex/"
    exit 1
fi
echo "PASS: exit status $status, stderr matches /$regex/"
exit 0
