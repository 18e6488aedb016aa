#!/bin/sh
# Smoke test of bench/icount_gdb.sh: two operations, few iterations, in
# conventional and PVAS mode; passes when the script printed a figure for
# each.  The counts themselves are not checked (docs/pvas.md has them).
# Exit 77 (skipped) when gdb is missing or may not attach.
#
#   icount_gdb_smoke.sh SOURCE_DIR BUILD_DIR
set -eu
src=$1
build=$2
export XGAS_ICOUNT_SPECS="long_p:heap putmem8:heap"
for mode in "" --pvas; do
    # shellcheck disable=SC2086  # mode: no word or one
    out=$("$src/bench/icount_gdb.sh" "$build" $mode 3 1) || exit $?
    echo "$out"
    for op in long_p putmem8; do
        echo "$out" | grep -q "^xgas-bench lib=xgas .* op=$op kind=instr .* value=[0-9.]* .* method=gdb-stepi" || {
            echo "icount_gdb_smoke: no figure for $op ${mode:-(conventional)}" >&2
            exit 1
        }
    done
done
echo "icount_gdb_smoke: ok"
