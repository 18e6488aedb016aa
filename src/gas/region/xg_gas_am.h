/*
 * What the rest of gas uses of the regions' active messages (am.c): the
 * NIC route opens and closes them with itself, and every wait of gas
 * (collectives, locks, regions) serves the read-modify-writes deferred to
 * this PE's application thread (XGAS_AM_THREAD=0).  Not exported: other
 * layers reach active messages only through xg_gas_region.h.
 */
#ifndef XG_GAS_AM_H
#define XG_GAS_AM_H

#include <stdatomic.h>

#include "base/xg_compiler.h"
#include "gas/region/xg_gas_region.h"
#include "xgas_status.h"

/* Opened by the NIC route of gas with it (collective like it). */
xg_status_t xg_gas_am_open(void);
void xg_gas_am_close(void);

/* For gas's waits: serves deferred read-modify-writes; one load when
 * there are none. */
extern _Atomic int xg_gas_am_deferred;
static inline void xg_gas_am_idle(void)
{
    if (xg_unlikely(atomic_load_explicit(&xg_gas_am_deferred,
                                         memory_order_relaxed) != 0)) {
        xg_gas_am_serve();
    }
}

#endif
