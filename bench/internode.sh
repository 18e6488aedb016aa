#!/bin/sh
# Between two nodes: xgas-bench --internode (one PE per node), the raw
# libfabric figures of the same patterns on the same provider
# (xgas-ofi-raw), fi_pingpong (libfabric-bin) and, where Open MPI is
# installed, OSHMEM over UCX's tcp transport -- all in one run, then the
# report (bench/internode_report.py).
#
#   bench/internode.sh BUILD_DIR RESULTS_DIR [loopback|netns] [--quick]
#   bench/internode.sh BUILD_DIR RESULTS_DIR --full [--quick]
#
# --full: every collective, GUPS, barrier, the 8-byte latencies and
#   message rates across 2 and 4 nodes of 1 and 2 PEs each (virtual and
#   namespace nodes) next to OSHMEM and raw libfabric, interleaved
#   rounds: bench/internode_full.sh (and bench/internode_full_report.py).
#
# loopback (the default): the two nodes are xgasrun's virtual nodes on this
#   host, talking over the loopback network; the raw programs run as two
#   processes of this host on the same provider and interface.
# netns: two network namespaces joined by a bridge (tests/netns): every
#   program runs under mpirun (oshrun), one process per namespace host.
#
# The programs run in turn, XGAS_INTERNODE_ROUNDS rounds (default 3; 1
# with --quick), and the report takes each figure's median over the
# rounds.  Into RESULTS_DIR go xgas.txt, raw.txt, fi_pingpong.txt,
# oshmem.txt, internode_report.md and its plots.  The provider is what
# xgas-info names (XGAS_OFI_PROVIDER / XGAS_OFI_DOMAIN choose it for every
# program).
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR RESULTS_DIR [loopback|netns] [--quick]" >&2
    exit 2
fi
case " $* " in
*" --full "*)
    full_quick=""
    case " $* " in *" --quick "*) full_quick=--quick ;; esac
    # shellcheck disable=SC2086  # empty or --quick
    exec sh "$(dirname "$0")/internode_full.sh" "$1" "$2" $full_quick
    ;;
esac
build=$(cd "$1" && pwd)
mkdir -p "$2"
results=$(cd "$2" && pwd)
mode=${3:-loopback}
quick=${4:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oshmem.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=$(command -v mpirun) || { echo "internode.sh: mpirun needed" >&2; exit 2; }
netns="$here/../tests/netns/netns_test.sh"

# the provider and domain xgas would use, for every program
net=$("$build/xgas-info" | sed -n 's/^network here: ofi: \(.*\) on \([^ ]*\) (.*/\1 \2/p')
prov=${net% *}
dom=${net#* }
[ -n "$prov" ] || { echo "internode.sh: xgas has no network here:" \
    "$("$build/xgas-info" | grep '^network')" >&2; exit 2; }
echo "internode.sh: provider $prov, domain $dom ($mode)" >&2

bench_args="--internode --op long_p,long_g,long_atomic_fetch_add,putmem,getmem"
bench_args="$bench_args --kind pingpong,issue,bw --max-size 8"
raw_args=""
rounds=${XGAS_INTERNODE_ROUNDS:-3}
if [ "$quick" = "--quick" ]; then
    bench_args="$bench_args --reps 3 --budget-ms 5 --step 8"
    raw_args="--reps 3 --step 8"
    rounds=1
fi

# on2 PROG ARGS...: two processes, one per node, through mpirun (or
# oshrun as $launcher)
on2() {
    launcher=$1
    shift
    if [ "$mode" = netns ]; then
        sh "$netns" "$launcher" 2 1 "$@"
    else
        # shellcheck disable=SC2086  # XGAS_OSHRUN_FLAGS is a word list
        "$launcher" -n 2 $XGAS_OSHRUN_FLAGS "$@"
    fi
}

if oshmem_found; then
    oshmem_build "$here" "$build/bench/oshmem"
fi
: >"$results/xgas.txt"
: >"$results/raw.txt"
: >"$results/fi_pingpong.txt"
: >"$results/oshmem.txt"
# fi_pingpong, one process per node: the server, and the client that
# finds it (by its host name across namespaces, else on this host)
cat >"$results/fi_pingpong.sh" <<EOF
#!/bin/sh
# written by bench/internode.sh
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then
    exec fi_pingpong -p "$prov" -e rdm -I 10000 -S 8 -B 47592
fi
sleep 1
server=\$(getent hosts xgas-node1 | cut -d' ' -f1)
exec fi_pingpong -p "$prov" -e rdm -I 10000 -S 8 -P 47592 "\${server:-127.0.0.1}"
EOF
# the runs alternate, round after round, so that a slow spell of the
# machine falls on every program alike; the report takes the medians
round=1
while [ "$round" -le "$rounds" ]; do
    echo "internode.sh: round $round of $rounds: xgas" >&2
    if [ "$mode" = netns ]; then
        # shellcheck disable=SC2086
        on2 "$mpirun" "$build/bench/xgas-bench" $bench_args \
            >>"$results/xgas.txt"
    else
        # shellcheck disable=SC2086
        XGAS_VIRTUAL_NODES=2 "$build/xgasrun" -n 2 \
            "$build/bench/xgas-bench" $bench_args >>"$results/xgas.txt"
    fi
    echo "internode.sh: round $round: raw libfabric" >&2
    # shellcheck disable=SC2086
    on2 "$mpirun" "$build/bench/xgas-ofi-raw" --provider "$prov" \
        --domain "$dom" $raw_args >>"$results/raw.txt"
    if command -v fi_pingpong >/dev/null 2>&1; then
        echo "internode.sh: round $round: fi_pingpong" >&2
        on2 "$mpirun" sh "$results/fi_pingpong.sh" \
            >>"$results/fi_pingpong.txt" 2>&1 ||
            echo "internode.sh: fi_pingpong failed" >&2
    fi
    if oshmem_found; then
        echo "internode.sh: round $round: OSHMEM over UCX tcp" >&2
        # shellcheck disable=SC2086
        UCX_TLS=tcp,self on2 oshrun -x UCX_TLS \
            "$build/bench/oshmem/xgas-bench" $bench_args --lib oshmem \
            >>"$results/oshmem.txt" ||
            echo "internode.sh: OSHMEM run failed" >&2
    fi
    round=$((round + 1))
done

python3 "$here/internode_report.py" "$results" "$prov" "$mode" >&2
