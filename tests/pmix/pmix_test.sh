#!/bin/sh
# pmix_test.sh HAVE_PMIX MPIRUN CASE ARGS...
#
# Runs an xgas program under Open MPI's mpirun, which it must join through
# the PMIx boot backend.  Skips (77) with the reason when this build has no
# PMIx backend (HAVE_PMIX is not ON) or mpirun is missing.  Cases:
#
#   run STATUS REGEX NP PROG [ARGS...]
#       `mpirun -n NP PROG ARGS` must exit with STATUS, every PE must say
#       it joined through pmix, and a line must match REGEX (extended)
#   hold NP PROG
#       PROG hold DIR under mpirun: once every PE waits, mpirun is killed
#       (SIGKILL); every PE must end by itself with a message saying that
#       it lost the launcher (the CTest timeout catches a PE that does not)
#   nodes STATUS REGEX NP PROG [ARGS...]
#       as run, with NP PEs on two "nodes", half on this machine and half
#       on a second one whose mpirun daemon local_rsh.sh starts here too:
#       PMIx then says the job spans two nodes, and the PEs of the second
#       reach the first only through the network (libfabric)
#
# As root, mpirun needs --allow-run-as-root (here through its variables);
# --oversubscribe lets it start more PEs than the machine has cores.
have=$1
mpirun=$2
what=$3
shift 3
if [ "$have" != ON ]; then
    echo "SKIPPED: this xgas build has no PMIx boot backend (libpmix-dev" \
         "was not found at configure time, or XGAS_PMIX=OFF)"
    exit 77
fi
case $mpirun in
"" | *NOTFOUND)
    echo "SKIPPED: mpirun was not found (Debian: apt-get install openmpi-bin)"
    exit 77
    ;;
esac
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export XGAS_LOG=info
here=$(dirname "$0")
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT

case $what in
run)
    status=$1
    regex=$2
    np=$3
    shift 3
    sh "$here/../tools/expect_run.sh" "$status" "$regex" \
        "$mpirun" --oversubscribe -n "$np" "$@" >"$dir/out" 2>&1
    got=$?
    cat "$dir/out"
    [ "$got" -eq 0 ] || exit 1
    joined=$(grep -Ec "PE [0-9]+ of $np joined through pmix" "$dir/out")
    if [ "$joined" -ne "$np" ]; then
        echo "FAIL: $joined of $np PEs joined through the PMIx backend"
        exit 1
    fi
    ;;
hold)
    np=$1
    prog=$2
    "$mpirun" --oversubscribe -n "$np" "$prog" hold "$dir" \
        >"$dir/mpirun.out" 2>&1 &
    launcher=$!
    while [ "$(ls "$dir" | grep -c '^pe\.[0-9]*\.pid$')" -lt "$np" ]; do
        if ! kill -0 "$launcher" 2>/dev/null; then
            cat "$dir/mpirun.out"
            echo "FAIL: mpirun ended before every PE was holding"
            exit 1
        fi
        sleep 0.1
    done
    kill -9 "$launcher"
    wait "$launcher" 2>/dev/null
    for pidfile in "$dir"/pe.*.pid; do
        pid=$(cat "$pidfile")
        # the PEs are not our children (mpirun was): poll their end
        while kill -0 "$pid" 2>/dev/null &&
              ! grep -q zombie "/proc/$pid/status" 2>/dev/null; do
            sleep 0.1
        done
    done
    cat "$dir"/pe.*.log
    ended=$(cat "$dir"/pe.*.log |
            grep -c "lost the connection to the PMIx launcher")
    if [ "$ended" -ne "$np" ]; then
        echo "FAIL: $ended of $np PEs said they lost the launcher"
        exit 1
    fi
    ;;
nodes)
    status=$1
    regex=$2
    np=$3
    shift 3
    half=$((np / 2))
    sh "$here/../tools/expect_run.sh" "$status" "$regex" \
        "$mpirun" --oversubscribe --mca plm_rsh_agent "$here/local_rsh.sh" \
        --host "$(hostname):$half,xgas-other-node:$((np - half))" -n "$np" \
        "$@" >"$dir/out" 2>&1
    got=$?
    cat "$dir/out"
    [ "$got" -eq 0 ] || exit 1
    nodes=$(grep -Ec "PE [0-9]+ is PE [0-9]+ of [0-9]+ on node [0-9]+ of 2" \
            "$dir/out")
    if [ "$nodes" -ne "$np" ]; then
        echo "FAIL: $nodes of $np PEs joined a job of 2 nodes"
        exit 1
    fi
    ;;
*)
    echo "pmix_test.sh: unknown case $what"
    exit 2
    ;;
esac
echo "PASS"
exit 0
