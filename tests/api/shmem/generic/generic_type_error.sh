#!/bin/sh
# A generic routine called with a type it does not support must not
# compile (the C11 interface selects xg_shmem_generic_type_error).
#   usage: generic_type_error.sh CC INCLUDE_DIR BUILD_INCLUDE_DIR
set -eu
cc=$1 inc=$2 binc=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/ok.c" <<'C'
#include <shmem.h>
static long x;
void f(void) { shmem_p(&x, 1L, 0); }
C
cat >"$work/bad.c" <<'C'
#include <shmem.h>
struct s { int a; };
static struct s x;
void f(void) { shmem_p(&x, x, 0); }
C
"$cc" -std=c11 -c -I"$inc" -I"$binc" -o "$work/ok.o" "$work/ok.c"
if "$cc" -std=c11 -c -I"$inc" -I"$binc" -o "$work/bad.o" "$work/bad.c" \
        2>"$work/err"; then
    echo "shmem_p on a struct compiled; it must not"
    exit 1
fi
grep -q xg_shmem_generic_type_error "$work/err"
echo "generic type error: rejected at compile time"
