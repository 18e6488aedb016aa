/*
 * Internals of regions (xg_gas_region.h), private to gas/region/: shared
 * by table.c (the table of regions, lock words, the accumulate kernel),
 * keys.c (the cache of other PEs' keys), am.c (active messages),
 * region_nic.c (the NIC route: registration, completion) and regions.c
 * (agreed allocation, the direct route and the dispatch), each calling
 * only the ones before it.  The rest of gas uses xg_gas_am.h.
 */
#ifndef XG_GAS_REGION_INT_H
#define XG_GAS_REGION_INT_H

#include <stdint.h>

#include "gas/region/xg_gas_am.h"
#include "gas/region/xg_gas_region.h"
#include "portals4.h"

/* Bytes after a region's data: the cache line of its accumulate lock. */
#define REGION_LOCK_LINE 64

struct xg_gas_region {
    uintptr_t base; /* this PE's address of the data */
    size_t size;    /* bytes of data (the largest a member asked) */
    uint64_t id;    /* partition offset of base: the same on every
                             member, what other PEs name the region by */
    uint64_t *lock; /* the accumulate lock word (after the data) */
    /* NIC route (region_nic.c); nic == 0 while gas has no NIC route */
    int nic;
    int key; /* portal index registering it here, -1 */
    ptl_handle_le_t le;
    ptl_handle_md_t md;      /* data that stays in place (gets, puts
                                  longer than one packet) */
    ptl_handle_md_t md_copy; /* data copied when issued (one packet) */
    ptl_handle_ct_t ct;      /* their acknowledgements and replies */
    uint64_t issued;         /* operations counted on ct */
    uint64_t done_upto;      /* issued count a completion waited for */
    uint64_t unordered;      /* issued count at the last write the NIC
                                  may reorder with a later get */
    uint64_t failed_seen;
};

/* Design points (XGAS_ACC, XGAS_CONSISTENCY), parsed at init. */
extern int xg_gas_region_acc_source;  /* 1: source-driven accumulate */
extern int xg_gas_region_per_process; /* 1: consistency per process */

/* ---- the table (table.c) ------------------------------------------------- */

/* Adds @region (allocated, its base and size set) to the table;
 * XG_ERR_NO_MEMORY when the table cannot grow. */
xg_status_t xg_gas_region_insert(xg_gas_region_t *region);
/* Takes @region out of the table (the caller frees it). */
void xg_gas_region_remove(xg_gas_region_t *region);
/* Empties the table at fini: @fn on every region, which is then freed. */
void xg_gas_region_table_clear(void (*fn)(xg_gas_region_t *region));

/* The region holding @addr (this PE's address of it), or NULL. */
xg_gas_region_t *xg_gas_region_lookup(const void *addr);

/* The region whose id is @id, or NULL (a target finding what an active
 * message names). */
xg_gas_region_t *xg_gas_region_by_id(uint64_t id);

/* Every region, for completion over all of them: calls @fn on each (fn
 * must not allocate or free regions). */
void xg_gas_region_each(void (*fn)(xg_gas_region_t *region, void *arg),
                        void *arg);

/* A region's accumulate lock word @word (this PE's or, on the direct
 * route, a node peer's): a spin of CPU atomics with backoff; released by
 * storing 0 with release order. */
void xg_gas_region_lock_word(uint64_t *word);
/* The accumulate lock of @region on this PE, taken by the target's side
 * of an active message. */
void xg_gas_region_lock_local(xg_gas_region_t *region);
void xg_gas_region_unlock_local(xg_gas_region_t *region);

/* Applies an accumulate of @len bytes from @src to @dst (checked). */
void xg_gas_region_acc_apply(const xg_gas_acc_t *acc, void *dst,
                             const void *src, size_t len);

/* Rows of a transfer: a strided shape over (dst, src), or the segments of
 * a vector that lie in one region.  next gives each row's remote address
 * -- as this PE's address of its own copy (the callers name the target's
 * address; the same offset in this PE's partition) -- its local address
 * and length; 0 at the end. */
typedef struct region_rows {
    xg_gas_xfer_t kind;
    /* strided */
    const xg_gas_shape_t *shape;
    char *dst;
    const char *src;
    size_t idx[XG_GAS_SHAPE_MAX_LEVELS];
    int started;
    /* vector */
    void *const *vdst;
    const void *const *vsrc;
    size_t vlen, vcount, vnext;
    uintptr_t delta; /* remote addresses -> this PE's */
    xg_gas_region_t *only;
} region_rows_t;

int region_rows_next(region_rows_t *rows, char **remote_p, char **local_p,
                     size_t *len_p);

/* ---- the NIC route (region_nic.c) -------------------------------------- */

/* Registers @region with the NIC when gas routes through it; unregisters
 * and drops other PEs' keys of it. */
xg_status_t xg_gas_region_nic_open(xg_gas_region_t *region);
void xg_gas_region_nic_close(xg_gas_region_t *region);

/* A transfer of @rows on @region of PE @pe through the NIC (checked);
 * @nb: may stay in flight. */
xg_status_t xg_gas_region_nic_xfer(xg_gas_region_t *region, int pe,
                                   const xg_gas_acc_t *acc, region_rows_t *rows,
                                   int nb);

xg_gas_amo_result_t xg_gas_region_nic_rmw(xg_gas_region_t *region, int pe,
                                          xg_gas_amo_t op, uint64_t offset,
                                          size_t size, uint64_t value);

/* Frees the key cache (gas_fini). */
void xg_gas_region_nic_fini(void);

/* Completion of @region's operations (NULL: every region's). */
xg_status_t xg_gas_region_nic_complete(xg_gas_region_t *region);
int xg_gas_region_nic_idle(xg_gas_region_t *region);

/* ---- the key cache (keys.c) --------------------------------------------- */

/* Opened with the first region on the NIC route (later calls: XG_OK),
 * closed at fini; XGAS_REGION_CACHE=0 keeps it empty. */
xg_status_t xg_gas_key_cache_open(void);
void xg_gas_key_cache_close(void);
/* What PE @pe registered region @id under (-1: not cached). */
int xg_gas_key_lookup(int pe, uint64_t id);
void xg_gas_key_insert(int pe, uint64_t id, int key);
void xg_gas_key_drop(uint64_t id);

/* ---- active messages (am.c) --------------------------------------------- */

typedef enum am_kind {
    AM_PUT = 1,
    AM_ACC,
    AM_GET,
    AM_RMW,
    AM_REPLY
} am_kind_t;

/* Largest active message (one packet at most): its stack buffer. */
#define XG_GAS_AM_BUF 8192

/* Packs the rows of one put or accumulate on (@region, @pe) into as few
 * active messages as fit one packet each. */
typedef struct am_batch {
    am_kind_t kind;
    xg_gas_region_t *region;
    int pe;
    int want_key;
    const xg_gas_acc_t *acc;
    size_t cap, used;
    uint32_t nseg;
    uint8_t buf[XG_GAS_AM_BUF];
} am_batch_t;

void xg_gas_am_batch_init(am_batch_t *batch, am_kind_t kind,
                          xg_gas_region_t *region, int pe,
                          const xg_gas_acc_t *acc, int want_key);
xg_status_t xg_gas_am_batch_add(am_batch_t *batch, uint64_t offset,
                                const void *data, size_t len);
xg_status_t xg_gas_am_batch_flush(am_batch_t *batch);

/* @len bytes at @offset of @region on @pe into local @dst, waiting. */
xg_status_t xg_gas_am_get(xg_gas_region_t *region, int pe, uint64_t offset,
                          void *dst, size_t len, int want_key);

xg_gas_amo_result_t xg_gas_am_rmw(xg_gas_region_t *region, int pe,
                                  uint64_t offset, xg_gas_amo_t op, size_t size,
                                  uint64_t value);

/* Counters for XGAS_STATS. */
typedef struct xg_gas_region_stats {
    uint64_t key_hits, key_misses, key_evictions;
    uint64_t am_sent, am_served, am_deferred;
    uint64_t get_fences;
} xg_gas_region_stats_t;

extern xg_gas_region_stats_t xg_gas_region_stats;

#endif
