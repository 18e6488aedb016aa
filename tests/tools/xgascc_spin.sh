#!/bin/sh
# Builds a handler file with `xgascc -spin-handler` and a PsPIN-style
# driver with `xgascc -spin`, then runs the driver on the handler.
# usage: xgascc_spin.sh XGASCC HANDLER_C DRIVER_C
set -eu
xgascc=$1 handler=$2 driver=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$xgascc" -spin-handler -O2 -o "$work/pingpong.so" "$handler"
# a handler file does not link libxgas: the engine loading it provides
# the runtime
"$xgascc" -spin-handler -showme -o x.so x.c | grep -q -- '-shared -fPIC'
if "$xgascc" -spin-handler -showme -o x.so x.c | grep -q -- '-lxgas'; then
    echo "xgascc -spin-handler links libxgas" >&2
    exit 1
fi
"$xgascc" -spin -O2 -o "$work/driver" "$driver"
"$work/driver" "$work/pingpong.so" | grep -q 'spin driver: passed'
echo "xgascc -spin: passed"
