/*
 * The life of gas: xg_gas_init and xg_gas_fini, the one place that knows
 * the order of the layer's parts -- the namespace table (gas.c), the NIC
 * route (route_nic.c) with its active messages (region/am.c) and batched
 * atomics (amo_batch.c), the
 * regions (region/regions.c).  Called by the runtime, one thread at a
 * time; nothing else of gas calls up into here.
 */
#include "gas/xg_gas.h"

#include "gas/region/xg_gas_am.h"
#include "gas/xg_gas_nic.h"

xg_status_t xg_gas_init(void)
{
    xg_status_t status = xg_gas_table_open();

    if (status == XG_OK) {
        status = xg_gas_nic_open();
    }
    if ((status == XG_OK) && xg_gas_nic_is_open()) {
        /* the route's active messages, on its NI */
        status = xg_gas_am_open();
        if (status == XG_OK) {
            status = xg_gas_amo_batch_open();
            if (status != XG_OK) {
                xg_gas_am_close();
            }
        }
        if (status != XG_OK) {
            xg_gas_nic_close();
        }
    }
    if (status == XG_OK) {
        xg_gas_table_publish(); /* last: translation works from here on */
    }
    return status;
}

void xg_gas_fini(void)
{
    xg_gas_region_fini();
    xg_gas_table_close();
    xg_gas_amo_batch_close();
    xg_gas_am_close();
    xg_gas_nic_close();
}
