/*
 * The least-frequently-used cache of other PEs' region keys
 * (region_int.h): (PE, region id) -> the portal index the PE registered
 * the region under.  A chained hash over a fixed array of
 * XGAS_REGION_CACHE entries; a full cache evicts the entry used least
 * often (ties: the oldest), and halves every count while it looks, so
 * that entries once hot and now idle age out.  Looked up by application
 * threads, filled by the active-message reply handler (am.c): one spin
 * lock.  Nothing here issues or waits.
 */
#include "gas/region/region_int.h"

#include <stdlib.h>

#include "base/xg_config.h"
#include "base/xg_log.h"
#include "base/xg_spinlock.h"
typedef struct key_entry {
    uint64_t id;
    int pe;
    int key;
    uint64_t uses;
    uint64_t born;
    int next; /* chain, -1 */
    int live;
} key_entry_t;

static struct {
    xg_spinlock_t lock;
    key_entry_t *entries;
    int *heads;
    unsigned mask; /* buckets - 1 */
    int cap, count;
    uint64_t clock;
} keys;

static unsigned key_bucket(int pe, uint64_t id)
{
    uint64_t h = (id >> 6) * 0x9e3779b97f4a7c15ull ^
                 (uint64_t)pe * 0xc2b2ae3d27d4eb4full;

    return (unsigned)(h >> 32) & keys.mask;
}

xg_status_t xg_gas_key_cache_open(void)
{
    unsigned buckets = 1;

    if (keys.entries != NULL) {
        return XG_OK; /* opened by an earlier region */
    }
    xg_spinlock_init(&keys.lock);
    keys.cap   = (int)xg_config.region_cache;
    keys.count = 0;
    if (keys.cap <= 0) {
        keys.cap = 0;
        return XG_OK;
    }
    while (buckets < 2u * (unsigned)keys.cap) {
        buckets *= 2;
    }
    keys.mask    = buckets - 1;
    keys.entries = calloc((size_t)keys.cap, sizeof(*keys.entries));
    keys.heads   = malloc(buckets * sizeof(*keys.heads));
    if ((keys.entries == NULL) || (keys.heads == NULL)) {
        free(keys.entries);
        free(keys.heads);
        keys.entries = NULL;
        keys.heads   = NULL;
        keys.cap     = 0;
        return XG_ERR_NO_MEMORY;
    }
    memset(keys.heads, 0xff, buckets * sizeof(*keys.heads));
    return XG_OK;
}

void xg_gas_key_cache_close(void)
{
    free(keys.entries);
    free(keys.heads);
    memset(&keys, 0, sizeof(keys));
}

static int *key_link(int pe, uint64_t id)
{
    int *link = &keys.heads[key_bucket(pe, id)];

    while ((*link >= 0) && !((keys.entries[*link].pe == pe) &&
                             (keys.entries[*link].id == id))) {
        link = &keys.entries[*link].next;
    }
    return link;
}

static void key_unlink(int at)
{
    key_entry_t *e = &keys.entries[at];
    int *link      = key_link(e->pe, e->id);

    *link   = e->next;
    e->live = 0;
    keys.count--;
}

int xg_gas_key_lookup(int pe, uint64_t id)
{
    int at, key = -1;

    if (keys.cap == 0) {
        return -1;
    }
    xg_spinlock_lock(&keys.lock);
    at = *key_link(pe, id);
    if (at >= 0) {
        keys.entries[at].uses++;
        key = keys.entries[at].key;
    }
    xg_spinlock_unlock(&keys.lock);
    __atomic_add_fetch((key >= 0) ? &xg_gas_region_stats.key_hits
                                  : &xg_gas_region_stats.key_misses,
                       1, __ATOMIC_RELAXED);
    return key;
}

/* The entry to reuse: a free one, else the least frequently used. */
static int key_victim(void)
{
    int i, best = -1;

    for (i = 0; i < keys.cap; i++) {
        key_entry_t *e = &keys.entries[i];

        if (!e->live) {
            return i;
        }
    }
    for (i = 0; i < keys.cap; i++) {
        key_entry_t *e = &keys.entries[i];

        if ((best < 0) || (e->uses < keys.entries[best].uses) ||
            ((e->uses == keys.entries[best].uses) &&
             (e->born < keys.entries[best].born))) {
            best = i;
        }
        e->uses = (e->uses + 1) / 2;
    }
    key_unlink(best);
    __atomic_add_fetch(&xg_gas_region_stats.key_evictions, 1, __ATOMIC_RELAXED);
    return best;
}

void xg_gas_key_insert(int pe, uint64_t id, int key)
{
    int *link, at;

    if (keys.cap == 0) {
        return;
    }
    xg_spinlock_lock(&keys.lock);
    link = key_link(pe, id);
    if (*link >= 0) {
        keys.entries[*link].key = key;
    } else {
        at                    = key_victim();
        keys.entries[at]      = (key_entry_t){.id   = id,
                                              .pe   = pe,
                                              .key  = key,
                                              .uses = 1,
                                              .born = keys.clock++,
                                              .live = 1};
        link                  = &keys.heads[key_bucket(pe, id)];
        keys.entries[at].next = *link;
        *link                 = at;
        keys.count++;
    }
    xg_spinlock_unlock(&keys.lock);
}

void xg_gas_key_drop(uint64_t id)
{
    int i;

    if (keys.cap == 0) {
        return;
    }
    xg_spinlock_lock(&keys.lock);
    for (i = 0; i < keys.cap; i++) {
        if (keys.entries[i].live && (keys.entries[i].id == id)) {
            key_unlink(i);
        }
    }
    xg_spinlock_unlock(&keys.lock);
}
