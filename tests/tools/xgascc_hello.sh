#!/bin/sh
# Builds hello.c with xgascc (compile and link in one step, and in two
# steps) and runs it on 3 PEs.  usage: xgascc_hello.sh XGASCC XGASRUN HELLO_C
set -eu
xgascc=$1 xgasrun=$2 source=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$xgascc" -O2 -o "$work/hello" "$source"
"$xgascc" -O2 -c -o "$work/hello.o" "$source"
"$xgascc" -o "$work/hello2" "$work/hello.o"
"$xgascc" -showme -o x x.c | grep -q -- '-lxgas'
# a PIE, as xgasrun --pvas needs (docs/pvas.md), unless asked otherwise
"$xgascc" -showme -o x x.c | grep -q -- '-fPIE -pie'
"$xgascc" -showme -c x.c | grep -- '-fPIE' | grep -vq -- '-pie'
! "$xgascc" -showme -no-pie -o x x.c | grep -q -- '-fPIE'
od -An -tx1 -j16 -N1 "$work/hello2" | grep -q 03
# (PVAS mode refuses sanitizer builds: one shadow memory per address space)
if ! ldd "$work/hello" 2>/dev/null | grep -q 'lib[at]san'; then
    "$xgasrun" --pvas -n 2 "$work/hello" | grep -q 'hello from 2 PEs: total 3'
fi
"$xgasrun" -n 3 "$work/hello" | grep -q 'hello from 3 PEs: total 6'
"$xgasrun" -n 2 "$work/hello2" | grep -q 'hello from 2 PEs: total 3'
echo "xgascc: passed"
