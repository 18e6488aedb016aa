/*
 * What gas unit tests that talk to their ring neighbours share: starting
 * the job through the native API, this PE's place in the ring, and a
 * private gas context.
 */
#ifndef GAS_TEST_H
#define GAS_TEST_H

#include "gas/xg_gas_ops.h"
#include "xg_test.h"
#include "xgas.h"

typedef struct gas_test_ring {
    int me, npes;
    int next, prev; /* (me + 1) and (me - 1) modulo npes */
} gas_test_ring_t;

/* xg_init, or the test fails; @ctx initialized as a private context. */
static inline gas_test_ring_t gas_test_start(xg_gas_ctx_t *ctx)
{
    gas_test_ring_t ring;

    XG_CHECK(xg_init() == XG_OK, "xg_init");
    ring.me    = xg_rank();
    ring.npes  = xg_size();
    ring.next  = (ring.me + 1) % ring.npes;
    ring.prev  = (ring.me + ring.npes - 1) % ring.npes;
    xg_test_pe = ring.me;
    xg_gas_ctx_init(ctx, 1);
    return ring;
}

#endif
