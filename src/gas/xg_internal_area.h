/*
 * Layout of the internal area at the top of each PE's partition (the PVAS
 * export area): runtime state that other PEs update directly.  Every field
 * that another PE writes sits on its own cache line.
 */
#ifndef XG_INTERNAL_AREA_H
#define XG_INTERNAL_AREA_H

#include <stdatomic.h>
#include <stdint.h>

#include "base/xg_compiler.h"

#define XG_BARRIER_MAX_ROUNDS 32 /* ceil(log2(npes)) rounds */

typedef struct xg_flag {
    _Atomic uint64_t value;
} XG_CACHE_ALIGNED xg_flag_t;

typedef struct xg_internal_area {
    /* dissemination barrier: round k is signalled by PE (me - 2^k) */
    xg_flag_t barrier[XG_BARRIER_MAX_ROUNDS];
} xg_internal_area_t;

#endif
