#!/bin/sh
# Every routine of the profiling interface exists: each pshmem_<name>
# declared in pshmem.h is a strong symbol of the library, and every
# shmem_<name> the library exports is weak with a pshmem_<name> twin.
#   usage: pshmem_symbols.sh LIBXGAS_SO PSHMEM_H
set -eu
lib=$1 header=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

nm -D --defined-only "$lib" | awk '{print $2, $3}' >"$work/syms"
sed -n 's/.*[^a-z_]\(pshmem_[a-z0-9_]*\)(.*/\1/p' "$header" | sort -u \
    >"$work/declared"
awk '$1 == "T" && $2 ~ /^pshmem_/ {print $2}' "$work/syms" | sort -u \
    >"$work/strong"
awk '$2 ~ /^shmem_/ {print $1, $2}' "$work/syms" >"$work/shmem"

missing=$(comm -23 "$work/declared" "$work/strong")
if [ -n "$missing" ]; then
    echo "declared in pshmem.h but not in the library:"; echo "$missing"
    exit 1
fi
strong=$(awk '$1 != "W" {print $2}' "$work/shmem")
if [ -n "$strong" ]; then
    echo "shmem_ symbols that are not weak:"; echo "$strong"
    exit 1
fi
awk '{print "p" $2}' "$work/shmem" | sort -u >"$work/want"
unpaired=$(comm -23 "$work/want" "$work/strong")
if [ -n "$unpaired" ]; then
    echo "shmem_ routines without a pshmem_ name:"; echo "$unpaired"
    exit 1
fi
echo "pshmem: $(wc -l <"$work/declared") declared routines, all present"
