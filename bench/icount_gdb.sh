#!/bin/sh
# Instructions executed per OpenSHMEM operation, counted by single-stepping
# PE 0 of a 2-PE job with gdb: the method that works in PVAS mode too,
# where valgrind cannot run a PE (it refuses the root's clone flags).
#
#   bench/icount_gdb.sh BUILD_DIR [--pvas] [--like-valgrind] [N [NBULK]]
#
# For each operation of bench/callgrind.sh, xgas-instr-count runs under
# `BUILD_DIR/xgasrun [--pvas] -n 2` with XGAS_IC_GDB=1: PE 0 runs the
# operation's loop once as a warm-up (lazy binding, first translations),
# prints its pid and the addresses of ic_loop and ic_go and waits; gdb
# attaches by pid (bench/icount_gdb.py), sets ic_go, and single-steps
# (stepi) the next two calls of ic_loop, with N and 2N operations, from
# their first instruction to their return, callees included.  The figure
# is (steps(2N) - steps(N)) / N, as callgrind.sh's (Ir(N2) - Ir(N1)) /
# (N2 - N1): one-time costs cancel, and the loop's own 2-3 instructions are
# in.  PE 1 waits in shmem_barrier_all meanwhile (the direct route needs
# nothing of it).  Only addresses are used: in PVAS mode gdb reads
# xgasrun's symbols (/proc/pid/exe is the node's), not the program's.
#
# N defaults to 20, NBULK (the 4 KiB operations) to 5.  A rep-prefixed
# string instruction takes one step per iteration (x86 single-stepping);
# glibc's memcpy on a CPU with FSRM copies 4 KiB with one `rep movsb`,
# i.e. about 4100 steps, where callgrind (whose emulated CPU makes glibc
# pick its vector loop) counts ~410 instructions.  `retired=` gives the
# steps that moved the pc (a rep instruction once), and --like-valgrind
# sets GLIBC_TUNABLES so that glibc picks the memcpy valgrind's CPU gets
# (__memmove_avx_unaligned_erms, vector loop up to 4 KiB): the figures
# then compare with callgrind.sh's.
#
# One line per figure on stdout, in callgrind.sh's format (kind=instr,
# value=instr/op, ir1/ir2 the two step counts) plus mode=conventional|pvas,
# method=gdb-stepi and retired=; progress and errors go to stderr.
# XGAS_ICOUNT_SPECS="op:object ..." chooses the operations.  Exit 77 when
# gdb is missing or may not attach (ptrace refused).
set -eu

usage() {
    echo "usage: $0 BUILD_DIR [--pvas] [--like-valgrind] [N [NBULK]]" >&2
    exit 2
}
[ $# -ge 1 ] || usage
build=$(cd "$1" && pwd)
shift
mode=conventional
pvas=
while [ $# -gt 0 ]; do
    case $1 in
    --pvas) mode=pvas pvas=--pvas ;;
    --like-valgrind)
        export GLIBC_TUNABLES="glibc.cpu.hwcaps=-AVX512F,-AVX512VL:glibc.cpu.x86_rep_movsb_threshold=4096" ;;
    -*) usage ;;
    *) break ;;
    esac
    shift
done
[ $# -le 2 ] || usage
n=${1:-20}
nbulk=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
prog=$build/bench/xgas-instr-count

command -v gdb >/dev/null 2>&1 || {
    echo "icount_gdb.sh: gdb not found (Debian: gdb)" >&2
    exit 77
}
tmp=$(mktemp -d)
job=
cleanup() {
    if [ -n "$job" ]; then
        kill "$job" 2>/dev/null || true
        wait "$job" 2>/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# field LINE KEY: the value of KEY= in LINE.
field() {
    echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# count OP OBJECT N: "steps1 moves1 steps2 moves2" of PE 0's two calls
# into $tmp/res.
count() {
    log="$tmp/$1-$2.log"
    : >"$log"
    XGAS_IC_GDB=1 XGAS_HANG_TIMEOUT=0 "$build/xgasrun" $pvas -n 2 \
        "$prog" "$1" "$3" "$2" >"$log" 2>&1 &
    job=$!
    line=
    i=0
    while [ $i -lt 600 ] && kill -0 "$job" 2>/dev/null; do
        line=$(grep '^instr_count pe=0 .* gdb_wait ' "$log" || true)
        [ -z "$line" ] || break
        sleep 0.1
        i=$((i + 1))
    done
    if [ -z "$line" ]; then
        echo "icount_gdb.sh: $1 $2: PE 0 did not wait for gdb:" >&2
        cat "$log" >&2
        return 1
    fi
    rm -f "$tmp/out"
    if ! IC_LOOP=$(field "$line" loop) IC_GO=$(field "$line" go) \
        IC_OUT="$tmp/out" gdb -batch -nx -p "$(field "$line" pid)" \
        -x "$here/icount_gdb.py" >"$tmp/gdb.log" 2>&1 ||
        [ ! -s "$tmp/out" ]; then
        if grep -q -i 'ptrace: Operation not permitted' "$tmp/gdb.log"; then
            echo "icount_gdb.sh: gdb may not attach (ptrace refused):" \
                "skipped" >&2
            exit 77
        fi
        echo "icount_gdb.sh: $1 $2: gdb failed:" >&2
        tail -20 "$tmp/gdb.log" >&2
        return 1
    fi
    st=0
    wait "$job" || st=$?
    job=
    if [ $st -ne 0 ]; then
        echo "icount_gdb.sh: $1 $2: the job exited $st:" >&2
        cat "$log" >&2
        return 1
    fi
    sed -n 's/^icount call=[12] steps=\([0-9]*\) moves=\([0-9]*\)$/\1 \2/p' \
        "$tmp/out" | tr '\n' ' ' >"$tmp/res"
}

specs=${XGAS_ICOUNT_SPECS:-"long_p:heap long_p:global long_p_quiet:heap
    long_g:heap long_g:global long_atomic_fetch_add:heap
    long_atomic_fetch_add:global putmem8:heap putmem8_quiet:heap
    raw_store:heap raw_fetch_add:heap putmem4k:heap getmem4k:heap
    raw_memcpy4k:heap"}
for spec in $specs; do
    op=${spec%%:*}
    obj=${spec#*:}
    case $op in *4k) size=4096 k=$nbulk ;; *) size=8 k=$n ;; esac
    echo "icount_gdb.sh: $mode $op $obj N=$k" >&2
    count "$op" "$obj" "$k"
    case $op in raw_*) obj=none ;; esac
    # shellcheck disable=SC2046  # four numbers
    set -- $(cat "$tmp/res")
    [ $# -eq 4 ] || {
        echo "icount_gdb.sh: $op: no counts" >&2
        exit 1
    }
    awk -v op="$op" -v obj="$obj" -v size="$size" -v n="$k" -v mode="$mode" \
        -v s1="$1" -v m1="$2" -v s2="$3" -v m2="$4" 'BEGIN {
        printf "xgas-bench lib=xgas npes=2 op=%s kind=instr size=%s " \
               "object=%s value=%.1f unit=instr/op ir1=%s ir2=%s n1=%s " \
               "n2=%s mode=%s method=gdb-stepi retired=%.1f\n", op, size, \
               obj, (s2 - s1) / n, s1, s2, n, 2 * n, mode, (m2 - m1) / n }'
done
