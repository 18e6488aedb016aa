/*
 * Counting events and triggered operations (ct.c): a counter is two
 * atomic words read without locks; its pending triggers wait in a min-heap
 * ordered by (threshold, issue sequence).
 */
#ifndef XG_NIC_CT_INT_H
#define XG_NIC_CT_INT_H

#include <stdint.h>

#include "base/xg_pool.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_fwd_int.h"

struct xg_nic_ct {
    xg_pool_obj_t obj;
    _Atomic uint64_t success;
    _Atomic uint64_t failure;
    xg_nic_trig_t **heap; /* pending triggers, min (threshold,seq) */
    uint32_t nheap;
    uint32_t heap_cap;
    uint8_t queued;   /* on the NI's check list */
    uint8_t internal; /* embedded in a target op */
};

typedef enum {
    XG_TRIG_OP = 0,    /* an API operation */
    XG_TRIG_PULL,      /* rendezvous pull of a target operation */
    XG_TRIG_ME_APPEND, /* PtlTriggeredMEAppend: link trig->me */
    XG_TRIG_ME_UNLINK  /* PtlTriggeredMEUnlink: unlink trig->me_handle */
} xg_nic_trig_kind_t;

struct xg_nic_trig {
    xg_pool_obj_t obj;
    uint8_t kind;
    uint64_t threshold;
    uint64_t seq;
    xg_nic_ct_t *ct;
    xg_nic_op_t op;
    xg_nic_tgt_t *tgt;
    xg_nic_me_t *me;           /* XG_TRIG_ME_APPEND */
    ptl_handle_me_t me_handle; /* XG_TRIG_ME_UNLINK */
};

void xg_nic_ct_add(xg_nic_ni_t *ni, xg_nic_ct_t *ct, uint64_t success,
                   uint64_t failure);
void xg_nic_ct_store(xg_nic_ni_t *ni, xg_nic_ct_t *ct, uint64_t success,
                     uint64_t failure);
/* A trigger from the NI's pool, or NULL when max_triggered_ops are
 * pending (said for @fn; the caller answers PTL_NO_SPACE). */
xg_nic_trig_t *xg_nic_trig_new(xg_nic_ni_t *ni, const char *fn);
/* Registers a trigger; fires now if the threshold is already reached. */
int xg_nic_trig_add(xg_nic_ni_t *ni, xg_nic_ct_t *ct, xg_nic_trig_t *trig);
void xg_nic_ct_cancel_all(xg_nic_ni_t *ni, xg_nic_ct_t *ct);
void xg_nic_ct_destroy(xg_nic_ni_t *ni, xg_nic_ct_t *ct);
void xg_nic_ct_init_internal(xg_nic_ct_t *ct);
/* The open NI of counter handle @handle, or NULL. */
xg_nic_ni_t *xg_nic_ct_ni(ptl_handle_ct_t handle);
/* @handle's live counter on @ni, or NULL after saying so for @fn. */
xg_nic_ct_t *xg_nic_ct_lookup(const char *fn, xg_nic_ni_t *ni,
                              ptl_handle_ct_t handle);

#endif
