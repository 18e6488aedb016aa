/*
 * Ordered chained hash table (see xg_hash.h).
 */
#include "base/xg_hash.h"

#include <stdlib.h>
#include <string.h>

#include "base/xg_log.h"

#define HTAB_MIN_BUCKETS 64u

uint64_t xg_hash2(uint64_t a, uint64_t b)
{
    uint64_t x = a ^ (b * 0x9e3779b97f4a7c15ull);

    /* 64-bit finalizer: every input bit affects every output bit */
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    x ^= x >> 33;
    return x;
}

void xg_htab_init(xg_htab_t *tab)
{
    memset(tab, 0, sizeof(*tab));
}

void xg_htab_fini(xg_htab_t *tab)
{
    free(tab->b);
    memset(tab, 0, sizeof(*tab));
}

static void htab_link(xg_hbucket_t *bucket, xg_hlink_t *link)
{
    link->next = NULL;
    link->prev = bucket->tail;
    if (bucket->tail != NULL) {
        bucket->tail->next = link;
    } else {
        bucket->head = link;
    }
    bucket->tail = link;
}

/* Doubles the buckets.  New bucket b receives only entries of old bucket
 * (b & old mask), walked in order, so every chain keeps append order. */
static void htab_grow(xg_htab_t *tab)
{
    uint32_t old_n = (tab->b == NULL) ? 0 : tab->mask + 1;
    uint32_t new_n = (old_n == 0) ? HTAB_MIN_BUCKETS : old_n * 2;
    xg_hbucket_t *b;
    xg_hlink_t *link, *next;
    uint32_t i;

    b = calloc(new_n, sizeof(*b));
    if (b == NULL) {
        return; /* keep the old table: longer chains, same results */
    }
    for (i = 0; i < old_n; i++) {
        for (link = tab->b[i].head; link != NULL; link = next) {
            next = link->next;
            htab_link(&b[link->hash & (new_n - 1)], link);
        }
    }
    free(tab->b);
    tab->b    = b;
    tab->mask = new_n - 1;
}

void xg_htab_append(xg_htab_t *tab, xg_hlink_t *link)
{
    /* load at most 1/2: chains stay short, a walk touches few entries */
    if ((tab->b == NULL) || (tab->count >= (tab->mask + 1) / 2)) {
        htab_grow(tab);
        if (tab->b == NULL) {
            xg_assert(0 && "no memory for the first hash buckets");
        }
    }
    htab_link(&tab->b[link->hash & tab->mask], link);
    tab->count++;
}

void xg_htab_remove(xg_htab_t *tab, xg_hlink_t *link)
{
    xg_hbucket_t *bucket = &tab->b[link->hash & tab->mask];

    if (link->prev != NULL) {
        link->prev->next = link->next;
    } else {
        bucket->head = link->next;
    }
    if (link->next != NULL) {
        link->next->prev = link->prev;
    } else {
        bucket->tail = link->prev;
    }
    link->next = link->prev = NULL;
    tab->count--;
}
