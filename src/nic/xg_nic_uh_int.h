/*
 * Unexpected headers: what is kept of a message that matched an overflow
 * entry (or is held by the NIC) until a priority append or a search takes
 * it.  Indexing in match.c, delivery to the taker in unexpected.c.
 */
#ifndef XG_NIC_UH_INT_H
#define XG_NIC_UH_INT_H

#include <stdint.h>

#include "base/xg_hash.h"
#include "base/xg_pool.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_fwd_int.h"
#include "nic/xg_nic_wire_int.h"

/* The header of an unexpected message (delivered to an overflow entry, or
 * held by the NIC), kept until a priority append or a search takes it. */
struct xg_nic_uh {
    /* first cache line: what a hash-chain walk reads */
    xg_pool_obj_t obj;
    xg_hlink_t hx; /* exact index: (source, match bits) */
    xg_hlink_t hm; /* any-source index: match bits */
    /* second: what matching and its event read */
    xg_nic_uh_t *next; /* arrival order */
    xg_nic_uh_t *prev;
    uint64_t src_key;
    xg_nic_msg_id_t id; /* the message */
    ptl_process_t initiator;
    uint8_t kind;   /* xg_nic_wire_type_t of the request */
    uint8_t held;   /* rendezvous payload still at initiator */
    uint8_t hashed; /* 1: in hx, 2: in hm (bits) */
    /* the rest of the event */
    ptl_size_t mlength; /* bytes in the overflow entry */
    void *start;        /* data in the overflow entry */
    xg_nic_me_t *me;    /* the overflow entry */
    uint32_t src_rank;
    /* held rendezvous messages */
    uint8_t *held_data; /* buddy block with the eager bytes */
    ptl_size_t held_len;
    /* the message whose data is still landing in the overflow entry (the
     * header is listed from the moment it matched) */
    xg_nic_tgt_t *pending;
};

/* match.c */
void xg_nic_uh_insert(xg_nic_ni_t *ni, xg_nic_pt_t *pt, xg_nic_uh_t *uh);
void xg_nic_uh_remove(xg_nic_pt_t *pt, xg_nic_uh_t *uh);
/* Starts loading the unexpected-header bucket an append of @desc will
 * search (a hint; nothing is read that matters). */
void xg_nic_uh_prefetch(const xg_nic_ni_t *ni, const xg_nic_pt_t *pt,
                        const xg_nic_entry_desc_t *desc);

/* First unexpected header (arrival order) matching @me, scanning from
 * @from (NULL: the oldest). */
xg_nic_uh_t *xg_nic_uh_find(xg_nic_ni_t *ni, xg_nic_pt_t *pt,
                            const xg_nic_me_t *me, xg_nic_uh_t *from);
/* The header after @uh in the index xg_nic_uh_find uses for @me. */
xg_nic_uh_t *xg_nic_uh_next(xg_nic_ni_t *ni, const xg_nic_me_t *me,
                            xg_nic_uh_t *uh);

/* unexpected.c */
/* A priority append or search met header @uh: deliver or report it. */
void xg_nic_tgt_take_header(xg_nic_ni_t *ni, xg_nic_uh_t *uh, xg_nic_me_t *me,
                            int search, void *user_ptr);
/* Posts the overflow (or search) event of @uh with @user_ptr. */
void xg_nic_uh_event(xg_nic_ni_t *ni, xg_nic_pt_t *pt, const xg_nic_uh_t *uh,
                     ptl_event_kind_t type, void *user_ptr, ptl_ni_fail_t fail);
void xg_nic_uh_destroy(xg_nic_ni_t *ni, xg_nic_uh_t *uh, int tell_initiator);

#endif
