/*
 * List entries (MEs of matching NIs, LEs of the others) and the lists of
 * a portal index: append, unlink and search (me.c), the matching indexes
 * (match.c).
 */
#ifndef XG_NIC_ME_INT_H
#define XG_NIC_ME_INT_H

#include <stdint.h>

#include "base/xg_hash.h"
#include "base/xg_pool.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_fwd_int.h"
#include "nic/xg_nic_region_int.h"

/* Where an entry is indexed. */
enum {
    XG_NIC_IDX_WILD = 0, /* ordered list: ignore bits or partial wildcard */
    XG_NIC_IDX_EXACT,    /* hash on (source, match bits) */
    XG_NIC_IDX_ANYSRC    /* hash on match bits, any source */
};

struct xg_nic_me {
    xg_pool_obj_t obj;
    xg_hlink_t link; /* chain or wild list */
    uint64_t seq;    /* append order */
    xg_nic_pt_t *pt;
    uint8_t list;   /* ptl_list_t */
    uint8_t idx;    /* XG_NIC_IDX_* */
    uint8_t linked; /* on its list */
    uint8_t is_le;
    uint8_t zombie; /* unlinked, freed when refs drop */
    uint8_t auto_unlinked;
    uint8_t consumed;     /* used up while being appended */
    uint8_t trig_pending; /* PtlTriggeredMEAppend not fired yet */
    unsigned options;
    xg_nic_region_t region;
    ptl_handle_ct_t ct;
    ptl_uid_t uid;
    ptl_jid_t jid;
    ptl_process_t match_id;
    uint64_t src_key; /* exact source, if idx == EXACT */
    ptl_match_bits_t match_bits;
    ptl_match_bits_t ignore_bits;
    ptl_size_t min_free;
    ptl_size_t local_offset;
    void *user_ptr;
    uint32_t inflight;          /* target operations using it */
    uint32_t uh_refs;           /* unexpected headers pointing into it */
    struct xg_nic_hooks *hooks; /* packet handlers, or NULL */
};

/* One list (priority or overflow) of a portal index. */
struct xg_nic_list {
    xg_htab_t exact;
    xg_htab_t anysrc;
    xg_hlink_t *wild_head;
    xg_hlink_t *wild_tail;
    uint32_t count;
};

/* match.c */
void xg_nic_list_init(xg_nic_list_t *list);
void xg_nic_list_fini(xg_nic_list_t *list);
void xg_nic_list_insert(xg_nic_ni_t *ni, xg_nic_list_t *list, xg_nic_me_t *me);
void xg_nic_list_remove(xg_nic_list_t *list, xg_nic_me_t *me);
/* Entry matching an incoming (key, bits, length, offset), first in append
 * order, or NULL.  Cost: O(1) for hashed entries plus the wildcard list
 * up to the best hashed candidate. */
xg_nic_me_t *xg_nic_list_match(xg_nic_ni_t *ni, xg_nic_list_t *list,
                               uint64_t src_key, ptl_match_bits_t bits,
                               ptl_size_t rlength, ptl_size_t roffset);
int xg_nic_me_matches_id(const xg_nic_ni_t *ni, const xg_nic_me_t *me,
                         const ptl_process_t *initiator);
void xg_nic_me_classify(xg_nic_ni_t *ni, xg_nic_me_t *me);

/* me.c */
/* Drops one use of @me (in-flight op or header); frees it when unlinked
 * and unused, posting AUTO_FREE for auto-unlinked overflow entries. */
void xg_nic_me_release(xg_nic_ni_t *ni, xg_nic_me_t *me);
/* Automatic unlink (use-once, min_free): AUTO_UNLINK event. */
void xg_nic_me_auto_unlink(xg_nic_ni_t *ni, xg_nic_me_t *me);
void xg_nic_me_destroy(xg_nic_ni_t *ni, xg_nic_me_t *me);
/* A PtlTriggeredMEAppend/Unlink trigger fires, or is dropped without
 * firing (counter freed or cancelled: a pending entry is then freed). */
void xg_nic_me_trig_fire(xg_nic_ni_t *ni, xg_nic_trig_t *trig);
void xg_nic_me_trig_drop(xg_nic_ni_t *ni, xg_nic_trig_t *trig);

#endif
