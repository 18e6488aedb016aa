#!/bin/sh
# Instructions executed per OpenSHMEM operation, counted by valgrind's
# callgrind on PE 0 of a 2-PE job.
#
#   bench/callgrind.sh BUILD_DIR [N1 N2]  > instr.txt
#
# For each operation of xgas-instr-count (bench/instr_count.c), on a heap
# and on a global target, the kernel runs twice under
# `valgrind --tool=callgrind --collect-atstart=no --toggle-collect=ic_loop`,
# with N1 and N2 operations (default 10000 and 20000); the result is
# (Ir(N2) - Ir(N1)) / (N2 - N1) for PE 0, so one-time costs cancel.  It
# includes the 2-3 instructions of the loop itself (see raw_store).
# xgas runs under BUILD_DIR/xgasrun; OSHMEM too if oshcc/oshrun exist
# (the programs are built into BUILD_DIR/bench/oshmem).  One line per
# figure on stdout, in xgas-bench's format with kind=instr; progress and
# the launchers' messages go to stderr.
set -eu

if [ $# -lt 1 ] || [ $# -eq 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 BUILD_DIR [N1 N2]" >&2
    exit 2
fi
build=$(cd "$1" && pwd)
n1=${2:-10000}
n2=${3:-20000}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/oshmem.sh"

command -v valgrind >/dev/null 2>&1 || {
    echo "callgrind.sh: valgrind not found (Debian: valgrind)" >&2
    exit 77
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

VG="valgrind --tool=callgrind --collect-atstart=no --toggle-collect=ic_loop"

# ir LIB N OP OBJECT: instructions PE 0 executed inside ic_loop.
ir() {
    out="$tmp/$1-$3-$4-$2"
    case $1 in
    xgas)
        "$build/xgasrun" -n 2 $VG --callgrind-out-file="$out.%p" \
            "$build/bench/xgas-instr-count" "$3" "$2" "$4" >"$out.log" 2>&1 ;;
    oshmem)
        # shellcheck disable=SC2086  # word lists
        oshrun -np 2 $XGAS_OSHRUN_FLAGS $VG --callgrind-out-file="$out.%p" \
            "$build/bench/oshmem/xgas-instr-count" "$3" "$2" "$4" \
            >"$out.log" 2>&1 ;;
    esac || {
        echo "callgrind.sh: $1 $3 $4 N=$2 failed:" >&2
        cat "$out.log" >&2
        return 1
    }
    pid=$(sed -n 's/^instr_count pe=0 pid=\([0-9]*\) .*/\1/p' "$out.log")
    sed -n 's/^totals: *\([0-9]*\).*/\1/p' "$out.$pid"
}

libs=xgas
if oshmem_found; then
    oshmem_build "$here" "$build/bench/oshmem"
    libs="xgas oshmem"
fi
for lib in $libs; do
    for spec in long_p:heap long_p:global long_p_quiet:heap \
                long_g:heap long_g:global long_atomic_fetch_add:heap \
                long_atomic_fetch_add:global putmem8:heap \
                putmem8_quiet:heap raw_store:heap raw_fetch_add:heap \
                putmem4k:heap getmem4k:heap raw_memcpy4k:heap; do
        op=${spec%%:*}
        obj=${spec#*:}
        echo "callgrind.sh: $lib $op $obj" >&2
        a=$(ir "$lib" "$n1" "$op" "$obj")
        b=$(ir "$lib" "$n2" "$op" "$obj")
        case $op in raw_*) obj=none ;; esac
        case $op in *4k) size=4096 ;; *) size=8 ;; esac
        awk -v lib="$lib" -v op="$op" -v obj="$obj" -v a="$a" -v b="$b" \
            -v n1="$n1" -v n2="$n2" -v size="$size" 'BEGIN {
            printf "xgas-bench lib=%s npes=2 op=%s kind=instr size=%s " \
                   "object=%s value=%.1f unit=instr/op ir1=%s ir2=%s " \
                   "n1=%s n2=%s\n", lib, op, size, obj, (b - a) / (n2 - n1), \
                   a, b, n1, n2 }'
    done
done
