/*
 * Event queues (eq.c): a ring of ptl_event_t; producers post under the NI
 * lock and take the queue's spin lock only to exclude the consumer.
 */
#ifndef XG_NIC_EQ_INT_H
#define XG_NIC_EQ_INT_H

#include <stdatomic.h>
#include <stdint.h>

#include "base/xg_pool.h"
#include "base/xg_spinlock.h"
#include "nic/xg_nic_fwd_int.h"
#include "portals4.h"

struct xg_nic_eq {
    xg_pool_obj_t obj;
    xg_spinlock_t lock;
    ptl_event_t *ring;
    uint64_t capacity;     /* slots: size + flow-control reserve */
    uint64_t size;         /* events the user asked room for */
    _Atomic uint64_t head; /* consumer */
    _Atomic uint64_t tail; /* producers (under the NI lock) */
    uint32_t fc_ptes;      /* flow-controlled PTs attached */
    uint8_t dropped;       /* an event was overwritten */
};

/* Posts @ev; a full queue drops its oldest event (reported later). */
void xg_nic_eq_post(xg_nic_eq_t *eq, const ptl_event_t *ev);
/* Free slots for flow-controlled posting (the reserve not counted). */
uint64_t xg_nic_eq_room(xg_nic_eq_t *eq);
void xg_nic_eq_destroy(xg_nic_ni_t *ni, xg_nic_eq_t *eq);
/* Takes the next event of queue @handle of @ni into *@ev: PTL_OK or
 * PTL_EQ_DROPPED with an event, PTL_EQ_EMPTY, or PTL_INTERRUPTED when the
 * handle died. */
int xg_nic_eq_take(xg_nic_ni_t *ni, ptl_handle_eq_t handle, ptl_event_t *ev);

#endif
