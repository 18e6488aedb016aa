#!/bin/sh
# api_suite.sh BUILD_DIR [REGEX]
#
# Runs the API test suite across real hosts: every test of tests/api that
# ctest runs across 2 virtual nodes of 2 PEs (the tests named *_2x2, REGEX
# narrows them) runs instead through netns_test.sh -- 2 network namespaces, 2 PEs
# each, started by mpirun -- with the same program, arguments and
# settings.  A test passes when its job exits 0 (or 77: skipped) within 5
# minutes.  Prints
# one line per test and a summary; exit status 0 when every test passed,
# 77 when the machine refuses namespaces.
build=$(cd "$1" && pwd) || exit 2
regex=${2:-.}
here=$(cd "$(dirname "$0")" && pwd)
mpirun=$(command -v mpirun) || {
    echo "SKIPPED: mpirun was not found"
    exit 77
}
list=$(mktemp) || exit 1
trap 'rm -f "$list"' EXIT
# "<name> <program and arguments>|<VAR=value ...>" per test
ctest --test-dir "$build" -N -V -R "_2x2\$" 2>/dev/null | awk -v re="$regex" '
    /^[0-9]+: Test command:/ {
        # only plain runs of a program (not the wrappers that expect a
        # failure: their judgement is not an exit status of 0)
        plain = sub(/^[0-9]+: Test command: "?[^ "]*\/xgasrun"? "-n" "[0-9]+" /, "")
        gsub(/"/, "")
        cmd = plain ? $0 : ""; env = ""; next
    }
    /^[0-9]+:  [A-Z_]+=/ {
        sub(/^[0-9]+:  /, "")
        if ($0 !~ /^XGAS_VIRTUAL_NODES=/) env = env " " $0
        next
    }
    /^ *Test +#[0-9]+:/ {
        name = $NF
        if ((name ~ re) && (cmd ~ /\/tests\/api\//)) print name " " cmd "|" env
        else if (name ~ re) print "not run here: " name " (not a plain run of a program)" >"/dev/stderr"
    }' >"$list"
pass=0
fail=0
skip=0
failed=""
while IFS='|' read -r test vars; do
    name=${test%% *}
    prog=${test#* }
    # shellcheck disable=SC2086  # word lists
    env $vars timeout 300 sh "$here/netns_test.sh" "$mpirun" 2 2 $prog \
        >"$build/netns-$name.log" 2>&1 </dev/null
    status=$?
    case $status in
    0) pass=$((pass + 1)); echo "PASS $name" ;;
    77)
        if grep -q "^SKIPPED: .*namespace\|^SKIPPED: .*root" \
            "$build/netns-$name.log"; then
            cat "$build/netns-$name.log"
            exit 77
        fi
        skip=$((skip + 1)); echo "SKIP $name" ;;
    *) fail=$((fail + 1)); failed="$failed $name"; echo "FAIL $name ($status)" ;;
    esac
done <"$list"
echo "netns API suite: $pass passed, $fail failed, $skip skipped${failed:+ (failed:$failed)}"
[ "$fail" -eq 0 ]
