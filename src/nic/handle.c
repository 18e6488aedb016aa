/*
 * Finding what is alive, and the per-NI state every part of the engine
 * updates: the process's NIC (xg_nic_global), its NIs by handle, the
 * handles of any object, the status registers, the malformed-packet
 * counters and the held-payload store.
 *
 * Nothing here waits, sends or runs the engine, so every file of nic/
 * may call it; opening and closing NIs is ni.c, the NIC's life nic.c.
 */
#include <stdlib.h>

#include "base/xg_buddy.h"
#include "base/xg_log.h"
#include "base/xg_pool.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_obj_int.h"
#include "nic/xg_nic_wire_int.h"

xg_nic_t *_Atomic xg_nic_global;

int xg_nic_is_initialized(void)
{
    return atomic_load_explicit(&xg_nic_global, memory_order_acquire) != NULL;
}

void xg_nic_count_malformed(xg_nic_t *nic, xg_nic_wire_err_t why)
{
    atomic_fetch_add_explicit(&nic->malformed[why], 1, memory_order_relaxed);
}

xg_nic_ni_t *xg_nic_ni_lookup(uint32_t handle)
{
    xg_nic_t *nic  = atomic_load_explicit(&xg_nic_global, memory_order_acquire);
    unsigned index = xg_nic_handle_ni(handle);

    if ((nic == NULL) ||
        (handle != xg_nic_handle_make(XG_NIC_OBJ_NI, index, 0, 0)) ||
        !xg_nic_ni_is_open(&nic->ni[index])) {
        return NULL;
    }
    return &nic->ni[index];
}

void xg_nic_sr_inc(xg_nic_ni_t *ni, ptl_sr_index_t reg)
{
    if (reg < PTL_SR_LAST) {
        atomic_fetch_add_explicit(&ni->sr[reg], 1, memory_order_relaxed);
    }
}

int xg_nic_ni_handle(const char *fn, ptl_handle_any_t handle,
                     ptl_handle_ni_t *ni_handle)
{
    unsigned type = xg_nic_handle_type(handle);
    ptl_handle_ni_t nih =
        xg_nic_handle_make(XG_NIC_OBJ_NI, xg_nic_handle_ni(handle), 0, 0);
    xg_nic_ni_t *ni = xg_nic_ni_lookup(nih);
    void *obj       = NULL;

    if (ni != NULL) {
        switch (type) {
        case XG_NIC_OBJ_NI: obj = (handle == nih) ? ni : NULL; break;
        case XG_NIC_OBJ_EQ: obj = xg_pool_lookup(&ni->eq_pool, handle); break;
        case XG_NIC_OBJ_CT: obj = xg_pool_lookup(&ni->ct_pool, handle); break;
        case XG_NIC_OBJ_MD: obj = xg_pool_lookup(&ni->md_pool, handle); break;
        case XG_NIC_OBJ_ME:
        case XG_NIC_OBJ_LE: obj = xg_pool_lookup(&ni->me_pool, handle); break;
        default: break;
        }
    }
    if (obj == NULL) {
        xg_warn("ptl", "%s: %#x is not the handle of a live object", fn,
                handle);
        return PTL_ARG_INVALID;
    }
    *ni_handle = nih;
    return PTL_OK;
}

int xg_nic_ni_status(const char *fn, ptl_handle_ni_t ni_handle,
                     ptl_sr_index_t reg, ptl_sr_value_t *value)
{
    xg_nic_ni_t *ni = xg_nic_ni_lookup(ni_handle);

    if (ni == NULL) {
        xg_warn("ptl", "%s: %#x is not an open NI handle", fn, ni_handle);
        return PTL_ARG_INVALID;
    }
    *value = atomic_load_explicit(&ni->sr[reg], memory_order_relaxed);
    return PTL_OK;
}

/* ------------------------------------------------------------------------
 * Held payloads (buddy store)
 * --------------------------------------------------------------------- */

uint8_t *xg_nic_held_alloc(xg_nic_ni_t *ni, size_t len)
{
    uint8_t *block;

    if (!ni->held_ready) {
        if (xg_buddy_init(&ni->held, NULL, (size_t)ni->nic->held_size, 64) !=
            XG_OK) {
            return NULL;
        }
        ni->held_ready = 1;
    }
    block = xg_buddy_alloc(&ni->held, len);
    if (block != NULL) {
        ni->held_bytes += len;
    }
    return block;
}

void xg_nic_held_free(xg_nic_ni_t *ni, uint8_t *block, size_t len)
{
    if ((block != NULL) && ni->held_ready) {
        xg_buddy_free(&ni->held, block);
        ni->held_bytes -= len;
    }
}
