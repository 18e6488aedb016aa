#!/bin/sh
# run_tests.sh ctest [ARGS...]
#
# Runs the ctest command line it is given (the README's test command),
# then prints one line that says how many tests skipped and why, from the
# reason each skipped test printed (its first line "SKIPPED: <why>" or
# "SKIP: <why>"), grouped and counted:
#
#     3 tests skipped: 2 because mpirun was not found (...); 1 because
#     slurmd must run as root here (uid 1000)
#
# or "no test skipped".  A skipped test is one ctest marks ***Skipped; its
# output comes from ctest's log of the run (Testing/Temporary/LastTest.log
# under the --test-dir given, or the current directory).  Exits with
# ctest's status.

set -u

if [ "$#" -lt 1 ]; then
    echo "usage: run_tests.sh ctest [ctest arguments...]" >&2
    exit 2
fi

dir=.
prev=
for arg in "$@"; do
    case $arg in
    --test-dir=*) dir=${arg#--test-dir=} ;;
    *) [ "$prev" = "--test-dir" ] && dir=$arg ;;
    esac
    prev=$arg
done

out=$(mktemp "${TMPDIR:-/tmp}/run_tests.XXXXXX") || exit 1
trap 'rm -f "$out"' EXIT
trap 'exit 1' INT TERM HUP

# ctest's status through the pipe into tee: kept in a file by a subshell
status_file=$out.status
("$@"; echo $? >"$status_file") | tee "$out"
status=$(cat "$status_file" 2>/dev/null || echo 1)
rm -f "$status_file"

log=$dir/Testing/Temporary/LastTest.log
# "  12/345 Test  #12: name ....***Skipped   0.01 sec"
sed -n 's/^.*Test  *#[0-9]*: \([^ ]*\) .*\*\*\*Skipped.*$/\1/p' "$out" |
awk -v logfile="$log" '
    BEGIN {
        # the reason of every test in the log: its first SKIP line
        name = ""
        while ((getline line < logfile) > 0) {
            if (line ~ /^[0-9]+\/[0-9]+ Testing: /) {
                name = line
                sub(/^[0-9]+\/[0-9]+ Testing: /, "", name)
            } else if ((name != "") && !(name in why) &&
                       (line ~ /^SKIP(PED)?:? /)) {
                text = line
                sub(/^SKIP(PED)?:? */, "", text)
                why[name] = text
            }
        }
    }
    {
        reason = ($0 in why) ? why[$0] : "no reason printed"
        if (!(reason in count)) {
            order[n++] = reason
        }
        count[reason]++
        total++
    }
    END {
        if (total == 0) {
            print "no test skipped"
            exit
        }
        line = total ((total == 1) ? " test" : " tests") " skipped: "
        for (i = 0; i < n; i++) {
            line = line ((i > 0) ? "; " : "") count[order[i]] " because " order[i]
        }
        print line
    }'
exit "$status"
