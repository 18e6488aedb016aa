#!/bin/sh
# Put and get bandwidth of xgas against Open MPI's OSHMEM, interleaved.
#
#   bench/bw_oshmem.sh BUILD_DIR RESULTS_DIR [ROUNDS [xgas-bench options...]]
#
# Runs xgas-bench's bandwidth figures (putmem bw, getmem bw; 4 KiB to
# 1 MiB, every power of two; each next to its raw memcpy baseline into or
# out of a shared memfd mapping, measured in the same process) ROUNDS
# times (default 9) with 2 PEs, alternating the library run by run
# (xgas, OSHMEM, OSHMEM, xgas, ...) so both see the same drift of the
# machine.  Result lines (bench/README.md format) are appended to
# RESULTS_DIR/bw-xgas.txt and bw-oshmem.txt; bench/bw_report.py then
# writes RESULTS_DIR/bw_report.md with the medians over the rounds.
# Options after ROUNDS replace the default figure selection.
# XGAS_BW_BEFORE=DIR adds a third run to each round: the xgas-bench of
# another built xgas tree (say, of the commit before a change), as
# lib=xgas-before in bw-xgas-before.txt, so a change is measured before
# and after in the same run.
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR RESULTS_DIR [ROUNDS [xgas-bench options...]]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
mkdir -p "$2"
results=$(cd "$2" && pwd)
rounds=${3:-9}
shift 2
[ $# -gt 0 ] && shift
if [ $# -eq 0 ]; then
    set -- --op putmem,getmem --kind bw --min-size 4K --max-bw-size 1M
fi
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oshmem.sh"

oshmem_found || { echo "bw_oshmem.sh: oshcc/oshrun not found" >&2; exit 2; }
oshmem_build "$here" "$build/bench/oshmem"
before=${XGAS_BW_BEFORE:+$(cd "$XGAS_BW_BEFORE" && pwd)}
: >"$results/bw-xgas.txt"
: >"$results/bw-oshmem.txt"
[ -z "$before" ] || : >"$results/bw-xgas-before.txt"

run_xgas() {
    "$build/xgasrun" -n 2 "$build/bench/xgas-bench" "$@" \
        >>"$results/bw-xgas.txt"
}
run_before() {
    if [ -n "$before" ]; then
        "$before/xgasrun" -n 2 "$before/bench/xgas-bench" --lib xgas-before \
            "$@" >>"$results/bw-xgas-before.txt"
    fi
}
run_oshmem() {
    # shellcheck disable=SC2086  # the flags are a word list
    oshrun -np 2 $XGAS_OSHRUN_FLAGS "$build/bench/oshmem/xgas-bench" "$@" \
        >>"$results/bw-oshmem.txt"
}

r=1
while [ "$r" -le "$rounds" ]; do
    echo "bw_oshmem.sh: round $r of $rounds" >&2
    if [ $((r % 2)) -eq 1 ]; then
        run_xgas "$@" && run_before "$@" && run_oshmem "$@"
    else
        run_oshmem "$@" && run_before "$@" && run_xgas "$@"
    fi
    r=$((r + 1))
done
python3 "$here/bw_report.py" -o "$results" "$results/bw-xgas.txt" \
    "$results/bw-oshmem.txt" ${before:+"$results/bw-xgas-before.txt"}
