#!/bin/sh
# run_tests_check.sh CMAKE CTEST RUN_TESTS
#
# Checks run_tests.sh (the README's test command) on a project of its own
# in a temporary directory: a test that passes, three that skip for two
# reasons (one printing none), and, in a second run, one that fails.  The
# summary line must count and group the reasons, and the exit status must
# be ctest's.
set -u
CMAKE=$1
CTEST=$2
RUN_TESTS=$3
TMP=$(mktemp -d "${TMPDIR:-/tmp}/run_tests_check.XXXXXX") || exit 1
trap 'rm -rf "$TMP"' EXIT
fail() {
    echo "FAIL: $*" >&2
    [ -f "$TMP/out" ] && tail -n 20 "$TMP/out" >&2
    exit 1
}
mkdir -p "$TMP/src"
cat >"$TMP/src/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(run_tests_check NONE)
enable_testing()
add_test(NAME passes COMMAND sh -c "echo SKIPPED: not a skip; exit 0")
add_test(NAME needs_x_1 COMMAND sh -c "echo SKIPPED: need X; exit 77")
add_test(NAME needs_x_2 COMMAND sh -c "echo SKIP: need X; exit 77")
add_test(NAME says_nothing COMMAND sh -c "exit 77")
set_tests_properties(needs_x_1 needs_x_2 says_nothing PROPERTIES
                     SKIP_RETURN_CODE 77)
if(WITH_FAILURE)
  add_test(NAME fails COMMAND sh -c "exit 1")
endif()
CMAKE
"$CMAKE" -S "$TMP/src" -B "$TMP/build" >/dev/null || fail "cmake failed"
"$RUN_TESTS" "$CTEST" --test-dir "$TMP/build" -j2 >"$TMP/out" 2>&1
status=$?
[ "$status" -eq 0 ] || fail "exit status $status, ctest's is 0"
expect="3 tests skipped: 2 because need X; 1 because no reason printed"
[ "$(tail -n 1 "$TMP/out")" = "$expect" ] ||
    fail "last line is not '$expect'"
"$CMAKE" -DWITH_FAILURE=ON "$TMP/build" >/dev/null || fail "cmake failed"
"$RUN_TESTS" "$CTEST" --test-dir "$TMP/build" -R 'fails|passes' \
    >"$TMP/out" 2>&1
status=$?
[ "$status" -ne 0 ] || fail "exit status 0 although a test failed"
[ "$(tail -n 1 "$TMP/out")" = "no test skipped" ] ||
    fail "last line is not 'no test skipped'"
exit 0
