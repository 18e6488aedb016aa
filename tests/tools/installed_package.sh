#!/bin/sh
# Checks an installed xgas (used by .ci/run after `cmake --install`): the
# installed xgascc, pkg-config file and CMake package each build hello.c,
# and the installed xgasrun runs it.  usage: installed_package.sh PREFIX
set -eu
prefix=$1
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$prefix/bin/xgascc" -o "$work/hello_cc" "$here/hello.c"
"$prefix/bin/xgasrun" -n 2 "$work/hello_cc" | grep -q 'total 3'

pcdir=$(dirname "$(find "$prefix" -name xgas.pc | head -n 1)")
flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs xgas)
# shellcheck disable=SC2086
cc -o "$work/hello_pc" "$here/hello.c" $flags
"$prefix/bin/xgasrun" -n 2 "$work/hello_pc" | grep -q 'total 3'

mkdir "$work/proj"
cat > "$work/proj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(hello C)
find_package(xgas REQUIRED)
add_executable(hello_cmake hello.c)
target_link_libraries(hello_cmake PRIVATE xgas::xgas)
CMAKE
cp "$here/hello.c" "$work/proj/"
cmake -S "$work/proj" -B "$work/proj/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
cmake --build "$work/proj/build" >/dev/null
"$prefix/bin/xgasrun" -n 2 "$work/proj/build/hello_cmake" | grep -q 'total 3'
# sPIN: the installed wrapper and xgas-spin.pc build a handler file and a
# PsPIN-style driver that loads it
"$here/xgascc_spin.sh" "$prefix/bin/xgascc" \
    "$here/../../examples/spin/handlers/pingpong.c" "$here/spin_driver.c" \
    >/dev/null
flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags xgas-spin)
# shellcheck disable=SC2086
cc -shared -fPIC $flags -o "$work/pp.so" \
    "$here/../../examples/spin/handlers/pingpong.c"
flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs xgas-spin)
# shellcheck disable=SC2086
cc -o "$work/spin_driver" "$here/spin_driver.c" $flags
"$work/spin_driver" "$work/pp.so" | grep -q 'spin driver: passed'

# libarmci, where the build had MPI: pkg-config and the CMake target build
# an ARMCI program, mpirun runs it
if [ -n "$(find "$prefix" -name armci.pc)" ] && command -v mpirun >/dev/null; then
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs armci)
    # shellcheck disable=SC2086
    cc -o "$work/hello_armci" "$here/hello_armci.c" $flags
    mpirun --oversubscribe -n 3 "$work/hello_armci" | grep -q 'armci total 3'
    mkdir "$work/aproj"
    cat > "$work/aproj/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.20)
project(hello_armci C)
find_package(xgas REQUIRED)
add_executable(hello_armci hello_armci.c)
target_link_libraries(hello_armci PRIVATE xgas::armci)
CMAKE
    cp "$here/hello_armci.c" "$work/aproj/"
    cmake -S "$work/aproj" -B "$work/aproj/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
    cmake --build "$work/aproj/build" >/dev/null
    mpirun --oversubscribe -n 2 "$work/aproj/build/hello_armci" | grep -q 'armci total 1'
fi
# the xBGAS machine, where the RISC-V cross compiler is: the installed
# xgas-xbgas-cc (with the installed xbgas.h) builds a guest that stores to
# its neighbour with esd, and the installed machine runs it on 2 PEs
if command -v riscv64-linux-gnu-gcc >/dev/null 2>&1; then
    cat > "$work/guest.c" <<'GUEST'
#include <stdio.h>
#include "xbgas.h"
static long word;
int main(void)
{
    int me = (int)xbgas_mype(), n = (int)xbgas_npes();

    xbgas_esd(xbgas_ns((me + 1) % n), &word, me + 1);
    xbgas_fence();
    printf("guest %d of %d\n", me, n);
    return 0;
}
GUEST
    "$prefix/bin/xgas-xbgas-cc" -O2 -o "$work/guest.rv64" "$work/guest.c"
    "$prefix/bin/xgasrun" -n 2 "$prefix/bin/xgas-xbgas" "$work/guest.rv64" |
        grep -q 'guest 1 of 2'
fi
echo "installed package: passed"
