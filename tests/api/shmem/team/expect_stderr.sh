#!/bin/sh
# expect_stderr.sh REGEX COMMAND [ARGS...]
#
# Runs COMMAND and passes when it exits 0 and a line of its stderr matches
# the extended regular expression REGEX (a program that succeeds but must
# also explain something on stderr).  The stderr is shown either way.
regex=$1
shift
err=$(mktemp) || exit 1
trap 'rm -f "$err"' EXIT
"$@" 2>"$err"
status=$?
cat "$err" >&2
if [ "$status" -ne 0 ]; then
    echo "FAIL: exit status $status"
    exit 1
fi
if ! grep -Eq -- "$regex" "$err"; then
    echo "FAIL: no line of stderr matches /$regex/"
    exit 1
fi
echo "PASS: exit status 0, stderr matches /$regex/"
exit 0
