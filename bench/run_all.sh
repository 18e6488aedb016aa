#!/bin/sh
# Runs every benchmark and writes the report; builds nothing of xgas.
#
#   bench/run_all.sh BUILD_DIR RESULTS_DIR [xgas-bench options...]
#
# BUILD_DIR is a configured and built xgas tree (it must hold
# xgasrun and bench/xgas-bench).  Into RESULTS_DIR go:
#   xgas-np2.txt            every figure, 2 PEs under xgasrun
#   xgas-np4.txt, -np8.txt  GUPS and barrier_all at 4 and 8 PEs
#   oshmem-np{2,4,8}.txt    the same with Open MPI's OSHMEM, if oshcc and
#                           oshrun exist (the same sources are built with
#                           oshcc into BUILD_DIR/bench/oshmem; see
#                           bench/oshmem.sh for the oshrun flags)
#   instr.txt               instructions per operation (bench/callgrind.sh;
#                           skipped if valgrind is missing or
#                           XGAS_BENCH_CALLGRIND=0)
#   coll-xgas-np{2,4,8}.txt collectives (xgas-coll-bench), team forms;
#   coll-xgas-aset-np*.txt  the same with the active-set (pSync) forms;
#   coll-oshmem-np*.txt     the active-set forms on OSHMEM (1.4: no teams)
#   report.md, *.png        bench/report.py (plots need matplotlib)
#   coll_report.md          bench/coll_report.py
# Options after RESULTS_DIR go to every xgas-bench run (e.g. --quick);
# xgas-coll-bench gets --quick if it is among them, plus the words of
# XGAS_COLL_BENCH_ARGS.
# Each run is ended after XGAS_BENCH_TIMEOUT seconds (default 1800).  The
# exit status is 1 if any run failed (including a GUPS verification).
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR RESULTS_DIR [xgas-bench options...]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
mkdir -p "$2"
results=$(cd "$2" && pwd)
shift 2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oshmem.sh"
limit=${XGAS_BENCH_TIMEOUT:-1800}
status=0

for f in "$build/xgasrun" "$build/bench/xgas-bench"; do
    [ -x "$f" ] || { echo "run_all.sh: $f missing: build first" >&2; exit 2; }
done

# run NAME COMMAND...: COMMAND's stdout into RESULTS_DIR/NAME.txt.
run() {
    name=$1
    shift
    echo "run_all.sh: $name: $*" >&2
    if ! timeout --kill-after=10 "$limit" "$@" >"$results/$name.txt"; then
        echo "run_all.sh: $name failed (see $results/$name.txt)" >&2
        status=1
    fi
}

run xgas-np2 "$build/xgasrun" -n 2 "$build/bench/xgas-bench" "$@"
for np in 4 8; do
    run "xgas-np$np" "$build/xgasrun" -n "$np" \
        "$build/bench/xgas-bench" "$@" --op gups,barrier_all,lock
done

if oshmem_found; then
    oshmem_build "$here" "$build/bench/oshmem"
    # shellcheck disable=SC2086  # the flags are a word list
    run oshmem-np2 oshrun -np 2 $XGAS_OSHRUN_FLAGS \
        "$build/bench/oshmem/xgas-bench" "$@"
    for np in 4 8; do
        # shellcheck disable=SC2086
        run "oshmem-np$np" oshrun -np "$np" $XGAS_OSHRUN_FLAGS \
            "$build/bench/oshmem/xgas-bench" "$@" --op gups,barrier_all,lock
    done
else
    echo "run_all.sh: oshcc/oshrun not found: no OSHMEM comparison" \
         "(Debian: apt-get install openmpi-bin libopenmpi-dev)" >&2
fi

# Collectives at 2, 4 and 8 PEs: xgas with its team forms and with the
# active-set forms, OSHMEM with the active-set forms (same source).
coll_args=${XGAS_COLL_BENCH_ARGS:-}
for a in "$@"; do
    if [ "$a" = "--quick" ]; then
        coll_args="--quick $coll_args"
    fi
done
if [ -x "$build/bench/xgas-coll-bench" ]; then
    for np in 2 4 8; do
        # shellcheck disable=SC2086  # the options are a word list
        run "coll-xgas-np$np" "$build/xgasrun" -n "$np" \
            "$build/bench/xgas-coll-bench" $coll_args
        # shellcheck disable=SC2086
        run "coll-xgas-aset-np$np" "$build/xgasrun" -n "$np" \
            "$build/bench/xgas-coll-bench" --api aset $coll_args
    done
    if oshmem_found; then
        mkdir -p "$build/bench/oshmem"
        # shellcheck disable=SC2046  # the flags and files are a word list
        oshcc -O2 -g -std=c11 -Wall -Wextra \
            -o "$build/bench/oshmem/xgas-coll-bench" \
            "$here/xgas_coll_bench.c" $(oshmem_lib "$here")
        for np in 2 4 8; do
            # shellcheck disable=SC2086
            run "coll-oshmem-np$np" oshrun -np "$np" $XGAS_OSHRUN_FLAGS \
                "$build/bench/oshmem/xgas-coll-bench" $coll_args
        done
    fi
else
    echo "run_all.sh: $build/bench/xgas-coll-bench missing: no collective" \
         "figures" >&2
fi

if [ "${XGAS_BENCH_CALLGRIND:-1}" != 0 ] &&
   command -v valgrind >/dev/null 2>&1; then
    echo "run_all.sh: instr: $here/callgrind.sh $build" >&2
    "$here/callgrind.sh" "$build" >"$results/instr.txt" ||
        { echo "run_all.sh: callgrind.sh failed" >&2; status=1; }
fi

# report.py draws plots with matplotlib, which Debian installs for the
# system python3; any python3 makes the tables.
py=python3
if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
    py=/usr/bin/python3
fi
"$py" "$here/report.py" -o "$results" "$results"/*.txt
if ls "$results"/coll-*.txt >/dev/null 2>&1; then
    python3 "$here/coll_report.py" -o "$results" "$results"/coll-*.txt ||
        status=1
fi
exit $status
