#!/usr/bin/env bash
# Runs armci-bench (bench/armci) for xgas's ARMCI and, when given its
# install prefix, for ARMCI-MPI built from the same source, alternating
# the two in every round; then writes the report with plots.
#   bench/armci/run.sh BUILD_DIR OUT_DIR [--armci-mpi PREFIX] [--rounds N]
#                      [--quick]
# PREFIX holds ARMCI-MPI's include/armci.h and lib/libarmci.{so,a} (built
# outside this repository; docs/armci.md says how).  Without it the report
# says the peer is absent.  Results: OUT_DIR/armci-results.txt, report:
# OUT_DIR/armci-report.md (PNG plots when python3 has matplotlib).  The
# machine should be idle.
set -euo pipefail
build=${1:?usage: run.sh BUILD_DIR OUT_DIR [--armci-mpi PREFIX] [--rounds N] [--quick]}
out=${2:?usage: run.sh BUILD_DIR OUT_DIR [--armci-mpi PREFIX] [--rounds N] [--quick]}
shift 2
peer_prefix=""
rounds=3
quick=""
while [ $# -gt 0 ]; do
    case $1 in
    --armci-mpi) peer_prefix=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --quick) quick=--quick; rounds=1; shift ;;
    *) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
res="$out/armci-results.txt"
: > "$res"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# more processes and progress threads than cores: MPI's waits must yield
mpirun=(timeout 1800 mpirun --oversubscribe --mca mpi_yield_when_idle 1)
xgas="$build/bench/armci/armci-bench"
say() { printf '== %s\n' "$*" >&2; }

peer=""
if [ -n "$peer_prefix" ]; then
    if [ -f "$peer_prefix/include/armci.h" ] &&
       ls "$peer_prefix"/lib/libarmci.* >/dev/null 2>&1; then
        peer="$out/armci-bench-armci-mpi"
        mpicc -O2 -D_GNU_SOURCE -I"$peer_prefix/include" -I"$here/../lib" \
            "$here/armci_bench.c" "$here/../lib/bench_core.c" \
            -o "$peer" -L"$peer_prefix/lib" -Wl,-rpath,"$peer_prefix/lib" \
            -larmci
    else
        echo "# peer=absent reason=no_armci_in_$peer_prefix" >> "$res"
        say "no ARMCI-MPI in $peer_prefix: xgas only"
    fi
else
    echo "# peer=absent reason=no_prefix_given" >> "$res"
fi

pair=latency,bw,strided,acc
for r in $(seq 1 "$rounds"); do
    say "round $r of $rounds: pair figures"
    "${mpirun[@]}" -n 2 "$xgas" $quick --figures $pair \
        --lib xgas --route direct >> "$res"
    if [ -n "$peer" ]; then
        "${mpirun[@]}" -n 2 "$peer" $quick --figures $pair \
            --lib armci-mpi --route mpi >> "$res"
    fi
    XGAS_ROUTE=nic "${mpirun[@]}" -n 2 "$xgas" $quick --figures $pair \
        --lib xgas --route nic >> "$res"
    XGAS_ROUTE=nic XGAS_ACC=source "${mpirun[@]}" -n 2 "$xgas" $quick \
        --figures acc --lib xgas --route nic-acc-source >> "$res"
done

# Fig. 10: processes 1..p-1 fetch-and-add a counter of process 0, which
# computes (in 1 ms chunks) or waits
np=4
for compute in 1000 0; do
    say "load-balance counter, owner computes ${compute} us chunks"
    "${mpirun[@]}" -n $np "$xgas" $quick --figures counter \
        --compute-us $compute --lib xgas --route direct >> "$res"
    XGAS_ROUTE=nic "${mpirun[@]}" -n $np "$xgas" $quick --figures counter \
        --compute-us $compute --lib xgas --route nic >> "$res"
    XGAS_ROUTE=nic XGAS_AM_THREAD=0 "${mpirun[@]}" -n $np "$xgas" $quick \
        --figures counter --compute-us $compute --lib xgas \
        --route nic-no-thread >> "$res"
    if [ -n "$peer" ]; then
        "${mpirun[@]}" -n $np "$peer" $quick --figures counter \
            --compute-us $compute --lib armci-mpi --route mpi >> "$res"
    fi
done

py=python3
[ -x /usr/bin/python3 ] && py=/usr/bin/python3
"$py" "$here/report.py" "$res" "$out"
say "report: $out/armci-report.md"
