#!/bin/sh
# bench/internode.sh's full mode: xgas across 2 and 4 nodes with 1, 2 PEs
# per node, next to OSHMEM over UCX tcp and raw libfabric, all in one run.
#
#   bench/internode.sh BUILD_DIR RESULTS_DIR --full [--quick]
#   (or sh bench/internode_full.sh BUILD_DIR RESULTS_DIR [--quick])
#
# Layouts (NODESxPES_PER_NODE; v: xgasrun's virtual nodes of this host,
# n: network namespaces joined by a bridge, tests/netns/netns_test.sh):
#   full:  v2x1 v2x2 v4x1 v4x2 n2x1 n2x2     quick: v2x1 v2x2 n2x1
# (XGAS_FULL_LAYOUTS overrides the list).  Every round runs, for every
# layout, the same programs built against xgas and with oshcc against
# OSHMEM, one after the other:
#   coll   xgas-coll-bench --no-baseline: every collective, 8 B .. 1 MiB
#   many   xgas-bench --internode --op gups,barrier_all: every PE
#   pair   (2x1 layouts only) xgas-bench --internode: 8-byte latencies
#          (put ping-pong, put + quiet, get, fetch-add), 8-byte message
#          rates (putmem, long_p, long_g nbi, atomic add, fetch-add) and
#          putmem/getmem bandwidth; then xgas-ofi-raw (raw libfabric:
#          round trip, read, message rate) and fi_pingpong on the same
#          provider
# XGAS_INTERNODE_ROUNDS rounds (default 3, quick 1); the report takes the
# medians.  OSHMEM runs over tcp only -- UCX_TLS=tcp,self, btl self,tcp
# (osc ^rdma: without it Open MPI 4.1 crashes in shmem_finalize) -- so
# that none of its PEs talk through shared memory.  Every program runs
# under `timeout` (XGAS_FULL_TIMEOUT seconds, default 300, quick 120): a
# failure or hang is written to runs.txt with its message and the run
# goes on.  The report's python is XGAS_PYTHON, else /usr/bin/python3.
#
# Into RESULTS_DIR: LAYOUT-PROG-LIB.txt (raw output of every round),
# xgas.txt raw.txt oshmem.txt fi_pingpong.txt (the v2x1 pair figures, as
# the default mode writes them, and its internode_report.md), n2x1-*.txt,
# runs.txt (one line per program run: status, seconds, message),
# internode_full.md and its plots (bench/internode_full_report.py).
# The launcher and argument lists are word lists, expanded unquoted:
# shellcheck disable=SC2086
set -eu

if [ $# -lt 2 ]; then
    echo "usage: $0 BUILD_DIR RESULTS_DIR [--quick]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
mkdir -p "$2"
results=$(cd "$2" && pwd)
quick=${3:-}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oshmem.sh"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
mpirun=$(command -v mpirun) || { echo "internode_full.sh: mpirun needed" >&2; exit 2; }
netns="$here/../tests/netns/netns_test.sh"
start=$(date +%s)

net=$("$build/xgas-info" | sed -n 's/^network here: ofi: \(.*\) on \([^ ]*\) (.*/\1 \2/p')
prov=${net% *}
dom=${net#* }
[ -n "$prov" ] || { echo "internode_full.sh: xgas has no network here" >&2; exit 2; }

# OSHMEM over tcp alone; the flags replace oshmem.sh's (one --mca btl)
osh_flags="--allow-run-as-root --oversubscribe --mca btl self,tcp --mca osc ^rdma"
coll_args="--no-baseline --sizes 8,64,512,4K,32K,256K,1M --budget-ms 2 --reps 3"
many_args="--internode --op gups,barrier_all --reps 5 --budget-ms 5"
pair_args="--internode --op long_p,long_g,long_atomic_fetch_add,long_atomic_add,putmem,getmem"
# the default mode's pair figures (bandwidth 8 B .. 4 MiB) and the rates
pair_args="$pair_args --kind pingpong,issue,bw --max-size 8 --reps 5 --budget-ms 5"
raw_args="--reps 5"
# in the namespace hosts a busy-polling raw program starves the kernel's
# network processing of this 2-core machine (milliseconds per ping-pong):
# fewer repetitions there
raw_args_n="--reps 3"
fipp_iters=10000
fipp_iters_n=1000
layouts=${XGAS_FULL_LAYOUTS:-v2x1 v2x2 v4x1 v4x2 n2x1 n2x2}
rounds=${XGAS_INTERNODE_ROUNDS:-3}
limit=${XGAS_FULL_TIMEOUT:-300}
if [ "$quick" = "--quick" ]; then
    coll_args="--no-baseline --sizes 8,4K,64K --max-size 64K --budget-ms 1 --reps 1"
    many_args="--internode --op gups,barrier_all --reps 1 --budget-ms 2 --gups-words 16384"
    pair_args="--internode --op long_p,long_g,long_atomic_fetch_add,long_atomic_add,putmem"
    pair_args="$pair_args --kind pingpong,issue,bw --max-size 8 --max-bw-size 8"
    pair_args="$pair_args --reps 1 --budget-ms 2"
    raw_args="--max-bw-size 8 --reps 1"
    raw_args_n=$raw_args
    fipp_iters=2000
    fipp_iters_n=200
    layouts=${XGAS_FULL_LAYOUTS:-v2x1 v2x2 n2x1}
    rounds=${XGAS_INTERNODE_ROUNDS:-1}
    limit=${XGAS_FULL_TIMEOUT:-120}
fi
# room for 1 MiB blocks of every PE, twice, in both libraries
: "${SHMEM_SYMMETRIC_SIZE:=256M}"
export SHMEM_SYMMETRIC_SIZE

if ! oshmem_found; then
    echo "internode_full.sh: no oshcc/oshrun: OSHMEM figures left out" >&2
else
    oshmem_build "$here" "$build/bench/oshmem"
    # shellcheck disable=SC2046  # the flags and files are a word list
    oshcc -O2 -g -std=c11 -Wall -Wextra -o "$build/bench/oshmem/xgas-coll-bench" \
        "$here/xgas_coll_bench.c" $(oshmem_lib "$here")
fi
netns_ok=1
sh "$netns" "$mpirun" 2 1 true >"$results/.netns_probe" 2>&1 || netns_ok=0
grep -q '^SKIPPED' "$results/.netns_probe" && netns_ok=0
if [ "$netns_ok" = 0 ]; then
    echo "internode_full.sh: no network namespaces here: $(head -n 1 \
        "$results/.netns_probe")" >&2
fi
rm -f "$results/.netns_probe"

for f in xgas raw oshmem fi_pingpong runs; do
    : >"$results/$f.txt"
done
rm -f "$results"/[vn][0-9]x[0-9]-*.txt "$results"/full_*.png
netns_before=$(ip netns list 2>/dev/null | sed -n 's/^\(xgas-[^ ]*\).*/\1/p' | sort)
cat >"$results/fi_pingpong.sh" <<EOF
#!/bin/sh
# written by bench/internode_full.sh: fi_pingpong.sh ITERATIONS
if [ "\$OMPI_COMM_WORLD_RANK" = 0 ]; then
    exec fi_pingpong -p "$prov" -e rdm -I "\$1" -S 8 -B 47592
fi
sleep 1
# across namespaces the server is host ...node1 (this one is ...node2)
server=\$(getent hosts "\$(hostname | sed 's/[0-9]*\$//')1" | cut -d' ' -f1)
exec fi_pingpong -p "$prov" -e rdm -I "\$1" -S 8 -P 47592 "\${server:-127.0.0.1}"
EOF

# run LAYOUT PROG LIB ROUND OUT LAUNCHER-AND-COMMAND...: one program run
# under timeout, its output appended to OUT, one line in runs.txt
run() {
    r_layout=$1 r_prog=$2 r_lib=$3 r_round=$4 r_out=$5
    shift 5
    echo "internode_full.sh: round $r_round: $r_layout $r_prog $r_lib" >&2
    r_t0=$(date +%s)
    r_status=0
    timeout -k 10 "$limit" "$@" >>"$r_out" 2>"$results/.err" || r_status=$?
    r_secs=$(($(date +%s) - r_t0))
    r_msg=""
    if [ "$r_status" != 0 ]; then
        [ "$r_status" = 124 ] && r_msg="timed out after $limit s; "
        r_msg="$r_msg$(grep -v '^ *$' "$results/.err" | grep -v '^-\{20\}' |
            tail -n 3 | tr '\n|' '  ' | cut -c1-400)"
        echo "internode_full.sh: $r_layout $r_prog $r_lib failed ($r_status): $r_msg" >&2
    fi
    echo "run layout=$r_layout prog=$r_prog lib=$r_lib round=$r_round" \
        "status=$r_status secs=$r_secs msg=$r_msg" >>"$results/runs.txt"
    rm -f "$results/.err"
}

# launchers LAYOUT: sets nodes, ppn, and the launcher words of xgas
# (xl: xgasrun's virtual nodes, or mpirun in the namespace hosts), OSHMEM
# (ol: oshrun over tcp) and the raw programs (rl: two plain processes,
# one per node); paths with spaces are not supported
launchers() {
    nodes=${1#?}
    ppn=${nodes#*x}
    nodes=${nodes%x*}
    case $1 in
    v*)
        xl="env XGAS_VIRTUAL_NODES=$nodes $build/xgasrun -n $((nodes * ppn))"
        ol="env UCX_TLS=tcp,self oshrun -np $((nodes * ppn)) $osh_flags -x UCX_TLS"
        rl="$mpirun -n 2 $XGAS_OSHRUN_FLAGS"
        ra=$raw_args
        fpi=$fipp_iters
        ;;
    n*)
        # every namespace host thinks it has every core: without
        # --bind-to none mpirun binds the first process of each to the
        # same core 0, and a ping-pong waits for the scheduler
        xl="sh $netns $mpirun $nodes $ppn --bind-to none"
        ol="env UCX_TLS=tcp,self sh $netns oshrun $nodes $ppn --bind-to none"
        ol="$ol -x UCX_TLS --mca btl self,tcp --mca osc ^rdma"
        rl="sh $netns $mpirun 2 1 --bind-to none"
        ra=$raw_args_n
        fpi=$fipp_iters_n
        ;;
    esac
}

round=1
while [ "$round" -le "$rounds" ]; do
    for L in $layouts; do
        case $L in
        n*) [ "$netns_ok" = 1 ] || continue ;;
        esac
        launchers "$L"
        # the v2x1 pair figures keep the default mode's file names
        pre="$results/$L-"
        [ "$L" = v2x1 ] && pre="$results/"
        case $L in
        ?2x1)
            run "$L" pair xgas "$round" "${pre}xgas.txt" \
                $xl "$build/bench/xgas-bench" $pair_args
            if oshmem_found; then
                    run "$L" pair oshmem "$round" "${pre}oshmem.txt" \
                    $ol "$build/bench/oshmem/xgas-bench" $pair_args \
                    --lib oshmem
            fi
            run "$L" raw ofi-raw "$round" "${pre}raw.txt" \
                $rl "$build/bench/xgas-ofi-raw" --provider "$prov" \
                --domain "$dom" $ra
            if command -v fi_pingpong >/dev/null 2>&1; then
                run "$L" fi_pingpong fi_pingpong "$round" \
                    "${pre}fi_pingpong.txt" $rl sh "$results/fi_pingpong.sh" "$fpi"
            fi
            ;;
        esac
        run "$L" coll xgas "$round" "$results/$L-coll-xgas.txt" \
            $xl "$build/bench/xgas-coll-bench" $coll_args
        if oshmem_found; then
            run "$L" coll oshmem "$round" "$results/$L-coll-oshmem.txt" \
                $ol "$build/bench/oshmem/xgas-coll-bench" $coll_args \
                --lib oshmem
        fi
        run "$L" many xgas "$round" "$results/$L-many-xgas.txt" \
            $xl "$build/bench/xgas-bench" $many_args
        if oshmem_found; then
            run "$L" many oshmem "$round" "$results/$L-many-oshmem.txt" \
                $ol "$build/bench/oshmem/xgas-bench" $many_args \
                --lib oshmem
        fi
    done
    round=$((round + 1))
done
rm -f "$results/fi_pingpong.sh"
netns_after=$(ip netns list 2>/dev/null | sed -n 's/^\(xgas-[^ ]*\).*/\1/p' | sort)
left=$(echo "$netns_after" | grep -vxF "$netns_before" || true)
if [ -n "$left" ]; then
    echo "internode_full.sh: network namespaces left: $left" >&2
    echo "left netns=$(echo "$left" | tr '\n' ' ')" >>"$results/runs.txt"
fi
secs=$(($(date +%s) - start))
echo "full layouts=\"$layouts\" rounds=$rounds quick=${quick:-no} seconds=$secs provider=$prov" \
    >>"$results/runs.txt"

# Debian's python3 (with python3-matplotlib) before another one on PATH
py=${XGAS_PYTHON:-python3}
if [ -z "${XGAS_PYTHON:-}" ] && [ -x /usr/bin/python3 ]; then
    py=/usr/bin/python3
fi
"$py" "$here/internode_report.py" "$results" "$prov" loopback >&2 || true
"$py" "$here/internode_full_report.py" "$results" "$prov" >&2
echo "internode_full.sh: done in $secs s" >&2
