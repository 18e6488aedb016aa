/*
 * The strided copy of gas, private to the layer: the direct route's
 * strided put and get (ops.c), the rows of a region transfer on the
 * direct route (region/regions.c) and the collective channels' strided
 * reads (coll/channel.c) all copy with it.  Inline, because the same-node
 * strided put and get run it: no call, no allocation, no lock.
 */
#ifndef XG_GAS_COPY_INT_H
#define XG_GAS_COPY_INT_H

#include <stddef.h>
#include <string.h>

/* Copies @n blocks of @size bytes that start @tstep bytes apart in @to
 * and @fstep bytes apart in @from (no block of @to overlaps one of
 * @from).  A block of a common small size is one fixed-size move, not a
 * call to memcpy. */
static inline void xg_gas_copy_strided(void *to, ptrdiff_t tstep,
                                       const void *from, ptrdiff_t fstep,
                                       size_t size, size_t n)
{
    char *t       = to;
    const char *f = from;
    size_t i;

#define XG_GAS_COPY_LOOP(SIZE)                                            \
    for (i = 0; i < n; i++) {                                             \
        memcpy(t + (ptrdiff_t)i * tstep, f + (ptrdiff_t)i * fstep, SIZE); \
    }
    switch (size) {
    case 1: XG_GAS_COPY_LOOP(1); break;
    case 2: XG_GAS_COPY_LOOP(2); break;
    case 4: XG_GAS_COPY_LOOP(4); break;
    case 8: XG_GAS_COPY_LOOP(8); break;
    case 16: XG_GAS_COPY_LOOP(16); break;
    case 32: XG_GAS_COPY_LOOP(32); break;
    default: XG_GAS_COPY_LOOP(size); break;
    }
#undef XG_GAS_COPY_LOOP
}

#endif
