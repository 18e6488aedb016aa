#!/bin/sh
# The xBGAS machine's figures in one run (docs/xbgas.md, "Measurements"):
#
#   bench/xbgas.sh BUILD_DIR
#
# the interpreter's rate on a load/store loop (speed.c at -O2 and -O0, one
# PE, --stats), a same-node remote eld loop at 2 PEs next to the native
# shmem_long_g of xgas-bench (kind issue), the GUPS kernel at 4 PEs next to
# xgas-bench's native GUPS, and the paper's kernels with xBGAS instructions
# against a software library in the guest.  Needs the RISC-V cross
# compiler (the guest programs of tests/xbgas).  Figures only: nothing is
# checked against a time.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")/.." && pwd)
run=$build/xgasrun
m=$build/tools/xbgas/xgas-xbgas
g=$build/tests/xbgas
[ -f "$g/speed.rv64" ] || { echo "$0: no guest programs in $g" \
    "(riscv64-linux-gnu-gcc missing?)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$build/tools/xbgas/xgas-xbgas-cc" -O0 -I"$here/tests/xbgas" \
    "$here/tests/xbgas/speed.c" -o "$tmp/speed_O0.rv64"
num='\([0-9.]*\)'
rate() {  # wall and CPU rates of a --stats line
    re="$num M instructions\/s, $num M per CPU second\$"
    sed -n "s/.* $re/wall=\1 cpu=\2/p" | head -1
}
for v in O2 O0; do
    p=$g/speed.rv64
    [ $v = O0 ] && p=$tmp/speed_O0.rv64
    r=$("$run" -n 1 "$m" --stats "$p" loop 1000 2>&1 >/dev/null | rate)
    echo "xbgas op=loadstore_loop build=$v $r unit=M_instr/s"
done
ns=$("$run" -n 2 "$m" "$g/speed.rv64" remote 2000000 |
     sed -n "s/^PE 0: remote eld: $num ns per load, $num ns of CPU.*/\
wall=\1 cpu=\2/p")
echo "xbgas op=remote_eld_loop $ns unit=ns/iteration" \
     "instructions=5 (eaddie eld add addi bne)"
"$run" -n 2 "$build/bench/xgas-bench" --op long_g --kind issue --reps 3 |
    grep '^xgas-bench' | sed 's/^/native /'
"$run" -n 4 "$m" "$g/gups.rv64" 12 50000 | sed 's/^/xbgas /'
"$run" -n 4 "$build/bench/xgas-bench" --op gups --reps 3 |
    grep '^xgas-bench' | sed 's/^/native /'
"$run" -n 4 "$m" "$g/kernels.rv64" 4096 16384 | sed 's/^/xbgas /'
