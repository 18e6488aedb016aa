#!/bin/sh
# pvas_pte.sh BUILD [NPES...]: runs xgas-pvas-pte (bench/pvas_pte.c) in
# conventional and in PVAS mode at each PE count (default 2 8 32 128) and
# prints its machine-readable lines, one per mode and count.  Small heaps
# keep large counts within the address space; a PVAS count beyond what
# vm.max_map_count allows is reported by xgasrun and skipped.  OBJECT_MIB
# (default 2) is the object every PE allocates and every other PE reads;
# a larger one needs SHMEM_SYMMETRIC_SIZE to hold it.
set -u
BUILD=$1
shift
[ $# -gt 0 ] || set -- 2 8 32 128
export SHMEM_SYMMETRIC_SIZE=${SHMEM_SYMMETRIC_SIZE:-4M}
export XGAS_PVAS_SEGMENT_SIZE=${XGAS_PVAS_SEGMENT_SIZE:-1G}
OBJECT_MIB=${OBJECT_MIB:-2}
for np in "$@"; do
    "$BUILD/xgasrun" -n "$np" "$BUILD/bench/xgas-pvas-pte" conventional \
        "$OBJECT_MIB"
    "$BUILD/xgasrun" --pvas -n "$np" "$BUILD/bench/xgas-pvas-pte" pvas \
        "$OBJECT_MIB"
done
