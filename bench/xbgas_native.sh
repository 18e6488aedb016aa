#!/bin/sh
# The paper's kernels natively (bench/kernels_native.c), for the xBGAS
# machine's comparison (docs/xbgas.md): xgas's OpenSHMEM and xbrtime, and
# Open MPI's OSHMEM when oshcc/oshrun exist, at 4 PEs.  Per kernel PE 0's
# instructions (callgrind, the kernel function's inclusive Ir) and time
# (a run without valgrind).
#   bench/xbgas_native.sh BUILD_DIR [elements (4096)] [updates (16384)]
set -eu
[ $# -ge 1 ] || { echo "usage: $0 BUILD_DIR [elements] [updates]" >&2; exit 2; }
build=$(cd "$1" && pwd)
n=${2:-4096}
u=${3:-16384}
libs=${XGAS_NATIVE_LIBS:-xgas oshmem}
np=${XGAS_NATIVE_NP:-4}
runs=${XGAS_NATIVE_TIME_RUNS:-1}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oshmem.sh"
command -v valgrind >/dev/null 2>&1 || { echo "$0: no valgrind" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
# report LIB LAUNCH...: counts from one callgrind run, times from another
report() {
    lib=$1
    shift
    "$@" valgrind --tool=callgrind --callgrind-out-file="$tmp/$lib.%p" \
        "$tmp/kn-$lib" "$n" "$u" >"$tmp/$lib.cg" 2>"$tmp/$lib.err"
    pid=$(sed -n 's/^pid=//p' "$tmp/$lib.cg")
    callgrind_annotate --inclusive=yes "$tmp/$lib.$pid" 2>/dev/null |
        sed -n 's/^ *\([0-9,]*\) .*:k_\([a-z]*\)_\([a-z]*\) .*/\2 \3 \1/p' |
        tr -d , | sort -u >"$tmp/$lib.ir"
    : >"$tmp/$lib.time"
    r=0
    while [ "$r" -lt "$runs" ]; do
        "$@" "$tmp/kn-$lib" "$n" "$u" >>"$tmp/$lib.time"
        r=$((r + 1))
    done
    while read -r k v ir; do
        ms=$(sed -n "s/^kernel=$k variant=$v pe0_ms=//p" "$tmp/$lib.time" |
             sort -g | head -1)
        echo "native lib=$lib variant=$v kernel=$k pe0_instructions=$ir" \
             "pe0_ms=$ms npes=$np elements=$n updates=$u time_runs=$runs"
    done <"$tmp/$lib.ir"
}
case " $libs " in *" xgas "*)
    "$build/xgascc" -O2 -g -std=c11 -DXGAS_XBRTIME \
        "$here/kernels_native.c" -o "$tmp/kn-xgas"
    report xgas "$build/xgasrun" -n "$np" ;;
esac
case " $libs " in *" oshmem "*)
    if oshmem_found; then
        oshcc -O2 -g -std=c11 "$here/kernels_native.c" -o "$tmp/kn-oshmem"
        # shellcheck disable=SC2086  # the flags are a word list
        report oshmem oshrun -np "$np" $XGAS_OSHRUN_FLAGS
    fi ;;
esac
