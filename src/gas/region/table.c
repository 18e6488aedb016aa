/*
 * The table of regions (region_int.h): regions sorted by base, looked up
 * by address (with a per-thread last hit) and by id, walked, described;
 * the local lock word of a region and the accumulate kernel that the
 * direct route, the NIC route and the active-message handlers share.
 * Nothing here issues an operation or waits for the NIC, so every file of
 * the room may call it.
 */
#include "gas/region/region_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xg_op.h"
#include "base/xg_wait.h"
#include "mem/xg_mem.h"

int xg_gas_region_acc_source;
int xg_gas_region_per_process;
xg_gas_region_stats_t xg_gas_region_stats;

/* Regions sorted by base.  Changed only by the collective alloc and free;
 * every change bumps gen, which invalidates the threads' last hits. */
static struct {
    pthread_mutex_t lock;
    xg_gas_region_t **sorted;
    size_t count, cap;
    uint64_t gen;
} regions = {.lock = PTHREAD_MUTEX_INITIALIZER, .gen = 1};

static __thread struct {
    uint64_t gen;
    xg_gas_region_t *region;
} region_last;

/* ---- the table ---------------------------------------------------------- */

/* Index of the first region whose base is above @addr. */
static size_t region_upper(uintptr_t addr)
{
    size_t lo = 0, hi = regions.count;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;

        if (regions.sorted[mid]->base <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

xg_gas_region_t *xg_gas_region_lookup(const void *addr)
{
    uintptr_t a             = (uintptr_t)addr;
    uint64_t gen            = __atomic_load_n(&regions.gen, __ATOMIC_ACQUIRE);
    xg_gas_region_t *region = region_last.region;
    size_t at;

    if (xg_likely((region_last.gen == gen) && (region != NULL) &&
                  (a - region->base < region->size))) {
        return region;
    }
    pthread_mutex_lock(&regions.lock);
    at     = region_upper(a);
    region = NULL;
    if ((at > 0) &&
        (a - regions.sorted[at - 1]->base < regions.sorted[at - 1]->size)) {
        region = regions.sorted[at - 1];
    }
    gen = regions.gen;
    pthread_mutex_unlock(&regions.lock);
    if (region != NULL) {
        region_last.gen    = gen;
        region_last.region = region;
    }
    return region;
}

xg_gas_region_t *xg_gas_region_by_id(uint64_t id)
{
    xg_gas_region_t *region;

    if (id >= xg_mem.heap_size) {
        return NULL;
    }
    region = xg_gas_region_lookup((const void *)(xg_gas.heap_lo + id));
    return ((region != NULL) && (region->id == id)) ? region : NULL;
}

void xg_gas_region_each(void (*fn)(xg_gas_region_t *region, void *arg),
                        void *arg)
{
    enum {
        CHUNK = 64
    };
    xg_gas_region_t *chunk[CHUNK];
    size_t at = 0, n, i;

    /* fn may wait for the NIC, whose handlers look regions up: the table
     * is not locked while it runs (a region is freed only collectively,
     * never while this PE operates on it) */
    do {
        pthread_mutex_lock(&regions.lock);
        n = (regions.count > at) ? regions.count - at : 0;
        n = (n < CHUNK) ? n : CHUNK;
        if (n > 0) {
            memcpy(chunk, regions.sorted + at, n * sizeof(*chunk));
        }
        pthread_mutex_unlock(&regions.lock);
        for (i = 0; i < n; i++) {
            fn(chunk[i], arg);
        }
        at += n;
    } while (n == CHUNK);
}

xg_status_t xg_gas_region_insert(xg_gas_region_t *region)
{
    size_t at;

    pthread_mutex_lock(&regions.lock);
    if (regions.count == regions.cap) {
        size_t cap              = regions.cap ? 2 * regions.cap : 16;
        xg_gas_region_t **grown = realloc(regions.sorted, cap * sizeof(*grown));

        if (grown == NULL) {
            pthread_mutex_unlock(&regions.lock);
            return XG_ERR_NO_MEMORY;
        }
        regions.sorted = grown;
        regions.cap    = cap;
    }
    at = region_upper(region->base);
    memmove(&regions.sorted[at + 1], &regions.sorted[at],
            (regions.count - at) * sizeof(*regions.sorted));
    regions.sorted[at] = region;
    regions.count++;
    __atomic_add_fetch(&regions.gen, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&regions.lock);
    return XG_OK;
}

void xg_gas_region_remove(xg_gas_region_t *region)
{
    size_t at;

    pthread_mutex_lock(&regions.lock);
    for (at = 0; at < regions.count; at++) {
        if (regions.sorted[at] == region) {
            memmove(&regions.sorted[at], &regions.sorted[at + 1],
                    (regions.count - at - 1) * sizeof(*regions.sorted));
            regions.count--;
            break;
        }
    }
    __atomic_add_fetch(&regions.gen, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&regions.lock);
}

xg_gas_region_t *xg_gas_region_find(const void *addr)
{
    return (xg_gas.npes == 0) ? NULL : xg_gas_region_lookup(addr);
}

void *xg_gas_region_base(const xg_gas_region_t *region)
{
    return (void *)region->base;
}

void *xg_gas_region_base_of(const xg_gas_region_t *region, int pe)
{
    return (void *)(xg_gas.table[pe + 1].base + region->id);
}

size_t xg_gas_region_size(const xg_gas_region_t *region)
{
    return region->size;
}

uint64_t xg_gas_region_id(const xg_gas_region_t *region)
{
    return region->id;
}

void xg_gas_region_describe(const void *addr, int pe, char *buf, size_t len)
{
    /* PE pe's addresses <-> this PE's */
    uintptr_t delta = ((unsigned)pe < (unsigned)xg_gas.npes)
                          ? xg_gas.heap_lo - xg_gas.table[pe + 1].base
                          : 0;
    uintptr_t a     = (uintptr_t)addr + delta;
    size_t at;

    pthread_mutex_lock(&regions.lock);
    at = region_upper(a);
    if (regions.count == 0) {
        snprintf(buf, len, "no memory is allocated");
    } else if (at == 0) {
        snprintf(buf, len,
                 "its lowest allocation starts at %p (%zu "
                 "allocations live)",
                 (void *)(regions.sorted[0]->base - delta), regions.count);
    } else {
        const xg_gas_region_t *r = regions.sorted[at - 1];

        snprintf(buf, len,
                 "its nearest allocation below is %p..%p (%zu "
                 "bytes; %zu allocations live)",
                 (void *)(r->base - delta), (void *)(r->base - delta + r->size),
                 r->size, regions.count);
    }
    pthread_mutex_unlock(&regions.lock);
}

void xg_gas_region_table_clear(void (*fn)(xg_gas_region_t *region))
{
    size_t i;

    pthread_mutex_lock(&regions.lock);
    for (i = 0; i < regions.count; i++) {
        fn(regions.sorted[i]);
        free(regions.sorted[i]);
    }
    free(regions.sorted);
    regions.sorted = NULL;
    regions.count = regions.cap = 0;
    __atomic_add_fetch(&regions.gen, 1, __ATOMIC_RELEASE);
    pthread_mutex_unlock(&regions.lock);
}

void xg_gas_region_lock_word(uint64_t *word)
{
    uint64_t expected = 0;
    xg_wait_t wait;

    if (xg_likely(__atomic_compare_exchange_n(
            word, &expected, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))) {
        return;
    }
    xg_wait_init(&wait);
    for (;;) {
        expected = 0;
        if ((__atomic_load_n(word, __ATOMIC_RELAXED) == 0) &&
            __atomic_compare_exchange_n(word, &expected, 1, 0, __ATOMIC_ACQUIRE,
                                        __ATOMIC_RELAXED)) {
            return;
        }
        xg_wait_backoff(&wait);
    }
}

void xg_gas_region_lock_local(xg_gas_region_t *region)
{
    xg_gas_region_lock_word(region->lock);
}

void xg_gas_region_unlock_local(xg_gas_region_t *region)
{
    __atomic_store_n(region->lock, 0, __ATOMIC_RELEASE);
}

void xg_gas_region_acc_apply(const xg_gas_acc_t *acc, void *dst,
                             const void *src, size_t len)
{
    xg_op_apply(XG_OP_ACC, acc->type, dst, src, acc->scale, NULL,
                len / xg_op_type_size(acc->type));
}
