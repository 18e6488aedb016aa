/*
 * Dissemination barrier over the internal areas of all PEs: in round k, PE
 * i increments a counter of PE (i + 2^k) mod n and waits until its own round
 * k counter reaches the barrier's epoch.  ceil(log2 n) rounds, each one
 * remote atomic and one local poll; no PE is a bottleneck.  Counters only
 * grow, so a fast PE that already signals the next barrier cannot be
 * mistaken for the current one (each barrier adds exactly one per round).
 * One thread per PE may be in the barrier at a time (as OpenSHMEM requires).
 */
#include <stdatomic.h>

#include "base/xg_wait.h"
#include "gas/xg_gas.h"
#include "gas/xg_internal_area.h"

static uint64_t barrier_epoch;

_Static_assert(sizeof(xg_internal_area_t) <= XG_MEM_INTERNAL_SIZE,
               "internal area overflows its reservation");

void xg_gas_barrier(void)
{
    xg_internal_area_t *mine = xg_mem_internal(xg_gas.me);
    uint64_t epoch = ++barrier_epoch;
    int npes = xg_gas.npes;
    int round, dist;
    xg_wait_t wait;

    for (round = 0, dist = 1; dist < npes; round++, dist <<= 1) {
        xg_internal_area_t *peer = xg_mem_internal((xg_gas.me + dist) % npes);

        /* release: our writes before the barrier happen before the peer
         * leaves it; acquire below: theirs before ours */
        atomic_fetch_add_explicit(&peer->barrier[round].value, 1,
                                  memory_order_release);
        xg_wait_init(&wait);
        while (atomic_load_explicit(&mine->barrier[round].value,
                                    memory_order_acquire) < epoch) {
            xg_wait_backoff(&wait);
        }
    }
}
