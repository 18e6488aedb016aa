/*
 * Matching: the lists of a portal index and the unexpected headers, with
 * the hashing of the Portals offload engine paper.
 *
 * A list (priority or overflow) keeps each entry in one of three indexes:
 *   EXACT   entries without ignore bits for one source: a chained hash on
 *           (source, match bits);
 *   ANYSRC  entries without ignore bits for any source: a hash on the
 *           match bits;
 *   WILD    everything else (ignore bits, half-wildcard physical ids, the
 *           LEs of non-matching NIs): one list in append order.
 * Every entry carries its append sequence number and every chain is kept
 * in append order, so the first entry in list order that accepts a message
 * is the one with the smallest sequence number among the first acceptable
 * entry of its exact chain, of its any-source chain and of the wild list:
 * the specification's first-match rule holds across the three indexes.
 * The wild list is walked only up to the best hashed candidate.
 *
 * Unexpected headers are kept in arrival order and, when hashing is on,
 * also in a hash on (source, match bits) and -- from the first any-source
 * receive on -- one on match bits, so an appended entry without ignore
 * bits finds the oldest matching header in O(1) expected time: the
 * paper's worst case (match at the tail of a long unexpected list) stays
 * constant.  XGAS_NIC_HASH=0 puts everything in the ordered lists (the
 * linear baseline of the benchmarks).
 */
#include <stdlib.h>
#include <string.h>

#include "base/xg_compiler.h"
#include "base/xg_hash.h"
#include "nic/xg_nic.h"
#include "nic/xg_nic_me_int.h"
#include "nic/xg_nic_ni_int.h"
#include "nic/xg_nic_pt_int.h"
#include "nic/xg_nic_uh_int.h"

#define XG_NIC_ANY_KEY UINT64_MAX

/* ------------------------------------------------------------------------
 * Entries
 * --------------------------------------------------------------------- */

int xg_nic_me_matches_id(const xg_nic_ni_t *ni, const xg_nic_me_t *me,
                         const ptl_process_t *initiator)
{
    if (ni->logical) {
        return (me->match_id.rank == PTL_RANK_ANY) ||
               (me->match_id.rank == initiator->rank);
    }
    return ((me->match_id.phys.nid == PTL_NID_ANY) ||
            (me->match_id.phys.nid == initiator->phys.nid)) &&
           ((me->match_id.phys.pid == PTL_PID_ANY) ||
            (me->match_id.phys.pid == initiator->phys.pid));
}

void xg_nic_me_classify(xg_nic_ni_t *ni, xg_nic_me_t *me)
{
    me->idx = XG_NIC_IDX_WILD;
    if (me->is_le || !ni->nic->hashing || (me->ignore_bits != 0)) {
        return;
    }
    if (ni->logical) {
        if (me->match_id.rank == PTL_RANK_ANY) {
            me->idx = XG_NIC_IDX_ANYSRC;
        } else {
            me->idx     = XG_NIC_IDX_EXACT;
            me->src_key = me->match_id.rank;
        }
    } else if ((me->match_id.phys.nid == PTL_NID_ANY) &&
               (me->match_id.phys.pid == PTL_PID_ANY)) {
        me->idx = XG_NIC_IDX_ANYSRC;
    } else if ((me->match_id.phys.nid != PTL_NID_ANY) &&
               (me->match_id.phys.pid != PTL_PID_ANY)) {
        me->idx = XG_NIC_IDX_EXACT;
        me->src_key =
            ((uint64_t)me->match_id.phys.nid << 32) | me->match_id.phys.pid;
    }
}

static uint64_t me_hash(const xg_nic_me_t *me)
{
    return (me->idx == XG_NIC_IDX_EXACT)
               ? xg_hash2(me->src_key, me->match_bits)
               : xg_hash2(XG_NIC_ANY_KEY, me->match_bits);
}

void xg_nic_list_init(xg_nic_list_t *list)
{
    memset(list, 0, sizeof(*list));
    xg_htab_init(&list->exact);
    xg_htab_init(&list->anysrc);
}

void xg_nic_list_fini(xg_nic_list_t *list)
{
    xg_htab_fini(&list->exact);
    xg_htab_fini(&list->anysrc);
    list->wild_head = list->wild_tail = NULL;
}

void xg_nic_list_insert(xg_nic_ni_t *ni, xg_nic_list_t *list, xg_nic_me_t *me)
{
    (void)ni;
    switch (me->idx) {
    case XG_NIC_IDX_EXACT:
        me->link.hash = me_hash(me);
        xg_htab_append(&list->exact, &me->link);
        break;
    case XG_NIC_IDX_ANYSRC:
        me->link.hash = me_hash(me);
        xg_htab_append(&list->anysrc, &me->link);
        break;
    default:
        me->link.next = NULL;
        me->link.prev = list->wild_tail;
        if (list->wild_tail != NULL) {
            list->wild_tail->next = &me->link;
        } else {
            list->wild_head = &me->link;
        }
        list->wild_tail = &me->link;
        break;
    }
    me->linked = 1;
    list->count++;
}

void xg_nic_list_remove(xg_nic_list_t *list, xg_nic_me_t *me)
{
    if (!me->linked) {
        return;
    }
    switch (me->idx) {
    case XG_NIC_IDX_EXACT: xg_htab_remove(&list->exact, &me->link); break;
    case XG_NIC_IDX_ANYSRC: xg_htab_remove(&list->anysrc, &me->link); break;
    default:
        if (me->link.prev != NULL) {
            me->link.prev->next = me->link.next;
        } else {
            list->wild_head = me->link.next;
        }
        if (me->link.next != NULL) {
            me->link.next->prev = me->link.prev;
        } else {
            list->wild_tail = me->link.prev;
        }
        me->link.next = me->link.prev = NULL;
        break;
    }
    me->linked = 0;
    list->count--;
}

/* The offset a message would use in @me. */
static ptl_size_t me_offset(const xg_nic_me_t *me, ptl_size_t roffset)
{
    return (me->options & PTL_ME_MANAGE_LOCAL) ? me->local_offset : roffset;
}

/* 1 if @me accepts a message (bits, source, and room if NO_TRUNCATE). */
static int me_accepts(const xg_nic_ni_t *ni, const xg_nic_me_t *me,
                      const ptl_process_t *initiator, ptl_match_bits_t bits,
                      ptl_size_t rlength, ptl_size_t roffset)
{
    ptl_size_t offset;

    if (!me->is_le) {
        if (((bits ^ me->match_bits) & ~me->ignore_bits) != 0) {
            return 0;
        }
        if (!xg_nic_me_matches_id(ni, me, initiator)) {
            return 0;
        }
    }
    if (me->options & PTL_ME_NO_TRUNCATE) {
        offset = me_offset(me, roffset);
        if ((offset > me->region.length) ||
            (rlength > me->region.length - offset)) {
            return 0;
        }
    }
    return 1;
}

static xg_nic_me_t *me_of(xg_hlink_t *link)
{
    return xg_container_of(link, xg_nic_me_t, link);
}

/* First acceptable entry of a chain (append order), or NULL. */
static xg_nic_me_t *chain_match(const xg_nic_ni_t *ni, xg_hlink_t *link,
                                uint64_t hash, const ptl_process_t *initiator,
                                ptl_match_bits_t bits, ptl_size_t rlength,
                                ptl_size_t roffset, uint64_t before_seq)
{
    xg_nic_me_t *me;

    for (; link != NULL; link = link->next) {
        me = me_of(link);
        if (me->seq >= before_seq) {
            return NULL;
        }
        if ((link->hash == hash) &&
            me_accepts(ni, me, initiator, bits, rlength, roffset)) {
            return me;
        }
    }
    return NULL;
}

xg_nic_me_t *xg_nic_list_match(xg_nic_ni_t *ni, xg_nic_list_t *list,
                               uint64_t src_key, ptl_match_bits_t bits,
                               ptl_size_t rlength, ptl_size_t roffset)
{
    ptl_process_t initiator;
    xg_nic_me_t *best = NULL, *me;
    uint64_t hash, limit = UINT64_MAX;
    xg_hlink_t *link;

    if (list->count == 0) {
        return NULL;
    }
    /* the initiator id is what the key encodes */
    if (ni->logical) {
        initiator.rank = (ptl_rank_t)src_key;
    } else {
        initiator.phys.nid = (ptl_nid_t)(src_key >> 32);
        initiator.phys.pid = (ptl_pid_t)src_key;
    }
    if (list->exact.count != 0) {
        hash = xg_hash2(src_key, bits);
        best = chain_match(ni, xg_htab_first(&list->exact, hash), hash,
                           &initiator, bits, rlength, roffset, limit);
        if (best != NULL) {
            limit = best->seq;
        }
    }
    if (list->anysrc.count != 0) {
        hash = xg_hash2(XG_NIC_ANY_KEY, bits);
        me   = chain_match(ni, xg_htab_first(&list->anysrc, hash), hash,
                           &initiator, bits, rlength, roffset, limit);
        if (me != NULL) {
            best  = me;
            limit = me->seq;
        }
    }
    for (link = list->wild_head; link != NULL; link = link->next) {
        me = me_of(link);
        if (me->seq >= limit) {
            break;
        }
        if (me_accepts(ni, me, &initiator, bits, rlength, roffset)) {
            best = me;
            break;
        }
    }
    return best;
}

/* ------------------------------------------------------------------------
 * Unexpected headers
 * --------------------------------------------------------------------- */

void xg_nic_uh_insert(xg_nic_ni_t *ni, xg_nic_pt_t *pt, xg_nic_uh_t *uh)
{
    uh->next = NULL;
    uh->prev = pt->uh_tail;
    if (pt->uh_tail != NULL) {
        pt->uh_tail->next = uh;
    } else {
        pt->uh_head = uh;
    }
    pt->uh_tail = uh;
    if (ni->nic->hashing) {
        uh->hx.hash = xg_hash2(uh->src_key, uh->id.match_bits);
        xg_htab_append(&pt->uh_exact, &uh->hx);
        uh->hashed = 1;
        if (pt->uh_mb_on) {
            uh->hm.hash = xg_hash2(XG_NIC_ANY_KEY, uh->id.match_bits);
            xg_htab_append(&pt->uh_mb, &uh->hm);
            uh->hashed |= 2;
        }
    }
    pt->uh_count++;
}

void xg_nic_uh_remove(xg_nic_pt_t *pt, xg_nic_uh_t *uh)
{
    if (uh->prev != NULL) {
        uh->prev->next = uh->next;
    } else {
        pt->uh_head = uh->next;
    }
    if (uh->next != NULL) {
        uh->next->prev = uh->prev;
    } else {
        pt->uh_tail = uh->prev;
    }
    uh->next = uh->prev = NULL;
    if (uh->hashed & 1) {
        xg_htab_remove(&pt->uh_exact, &uh->hx);
    }
    if (uh->hashed & 2) {
        xg_htab_remove(&pt->uh_mb, &uh->hm);
    }
    uh->hashed = 0;
    pt->uh_count--;
}

static int uh_accepts(const xg_nic_ni_t *ni, const xg_nic_me_t *me,
                      const xg_nic_uh_t *uh)
{
    return me_accepts(ni, me, &uh->initiator, uh->id.match_bits, uh->id.rlength,
                      uh->id.roffset);
}

/* The lines of a header that matching and its event read after the hash
 * link: fetched together with the link's own line, not one after another
 * (what a match costs with tens of thousands of headers queued). */
static inline void uh_prefetch(const xg_hlink_t *link)
{
    if (link != NULL) {
        __builtin_prefetch((const char *)link + 64);
        __builtin_prefetch((const char *)link + 128);
    }
}

void xg_nic_uh_prefetch(const xg_nic_ni_t *ni, const xg_nic_pt_t *pt,
                        const xg_nic_entry_desc_t *desc)
{
    const xg_htab_t *tab;
    xg_nic_me_t me;
    uint64_t hash;

    if ((pt->uh_count == 0) || !ni->nic->hashing) {
        return;
    }
    me.is_le       = (uint8_t)desc->is_le;
    me.ignore_bits = desc->is_le ? 0 : desc->ignore_bits;
    me.match_bits  = desc->is_le ? 0 : desc->match_bits;
    me.match_id    = desc->match_id;
    me.src_key     = 0;
    xg_nic_me_classify((xg_nic_ni_t *)ni, &me);
    if (me.idx == XG_NIC_IDX_EXACT) {
        tab = &pt->uh_exact;
    } else if ((me.idx == XG_NIC_IDX_ANYSRC) && pt->uh_mb_on) {
        tab = &pt->uh_mb;
    } else {
        return;
    }
    hash = me_hash(&me);
    if (tab->b != NULL) {
        __builtin_prefetch(&tab->b[hash & tab->mask]);
    }
}

xg_nic_uh_t *xg_nic_uh_find(xg_nic_ni_t *ni, xg_nic_pt_t *pt,
                            const xg_nic_me_t *me, xg_nic_uh_t *from)
{
    xg_hlink_t *link;
    xg_nic_uh_t *uh;
    uint64_t hash;

    if (pt->uh_count == 0) {
        return NULL;
    }
    if (ni->nic->hashing && (me->idx == XG_NIC_IDX_EXACT)) {
        hash = xg_hash2(me->src_key, me->match_bits);
        link = (from != NULL) ? &from->hx : xg_htab_first(&pt->uh_exact, hash);
        uh_prefetch(link);
        for (; link != NULL; link = link->next) {
            uh = xg_container_of(link, xg_nic_uh_t, hx);
            if ((link->hash == hash) && uh_accepts(ni, me, uh)) {
                return uh;
            }
        }
        return NULL;
    }
    if (ni->nic->hashing && (me->idx == XG_NIC_IDX_ANYSRC)) {
        if (!pt->uh_mb_on) {
            /* the first any-source receive: index the headers by match
             * bits from now on (programs that never receive from any
             * source never pay for it) */
            for (uh = pt->uh_head; uh != NULL; uh = uh->next) {
                uh->hm.hash = xg_hash2(XG_NIC_ANY_KEY, uh->id.match_bits);
                xg_htab_append(&pt->uh_mb, &uh->hm);
                uh->hashed |= 2;
            }
            pt->uh_mb_on = 1;
        }
        hash = xg_hash2(XG_NIC_ANY_KEY, me->match_bits);
        link = (from != NULL) ? &from->hm : xg_htab_first(&pt->uh_mb, hash);
        uh_prefetch(link);
        for (; link != NULL; link = link->next) {
            uh = xg_container_of(link, xg_nic_uh_t, hm);
            if ((link->hash == hash) && uh_accepts(ni, me, uh)) {
                return uh;
            }
        }
        return NULL;
    }
    for (uh = (from != NULL) ? from : pt->uh_head; uh != NULL; uh = uh->next) {
        if (uh_accepts(ni, me, uh)) {
            return uh;
        }
    }
    return NULL;
}

xg_nic_uh_t *xg_nic_uh_next(xg_nic_ni_t *ni, const xg_nic_me_t *me,
                            xg_nic_uh_t *uh)
{
    xg_hlink_t *link;

    if (ni->nic->hashing && (me->idx == XG_NIC_IDX_EXACT)) {
        link = uh->hx.next;
        return (link != NULL) ? xg_container_of(link, xg_nic_uh_t, hx) : NULL;
    }
    if (ni->nic->hashing && (me->idx == XG_NIC_IDX_ANYSRC)) {
        link = uh->hm.next;
        return (link != NULL) ? xg_container_of(link, xg_nic_uh_t, hm) : NULL;
    }
    return uh->next;
}
