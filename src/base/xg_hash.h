/*
 * A chained hash table of intrusive links whose chains keep insertion
 * order, for indexes where the order of equal keys matters (the NIC's
 * first-match rule).  The caller hashes (xg_hash2) and compares keys; the
 * table only keeps links in buckets by hash.  It grows by doubling at load
 * 1/2, and each new chain comes from one old chain, walked in order, so
 * growth never reorders a chain.  Buckets hold both ends of their chain:
 * an insert, lookup or removal touches one bucket line.
 *
 * Not thread-safe: the owner serializes calls.
 */
#ifndef XG_HASH_H
#define XG_HASH_H

#include <stddef.h>
#include <stdint.h>

typedef struct xg_hlink {
    struct xg_hlink *next;
    struct xg_hlink *prev;
    uint64_t hash;
} xg_hlink_t;

typedef struct xg_hbucket {
    xg_hlink_t *head;
    xg_hlink_t *tail;
} xg_hbucket_t;

typedef struct xg_htab {
    xg_hbucket_t *b;
    uint32_t mask; /* buckets - 1 */
    uint32_t count;
} xg_htab_t;

void xg_htab_init(xg_htab_t *tab);
void xg_htab_fini(xg_htab_t *tab);
/* Appends @link (its hash set) at the tail of its chain. */
void xg_htab_append(xg_htab_t *tab, xg_hlink_t *link);
void xg_htab_remove(xg_htab_t *tab, xg_hlink_t *link);

/* The oldest link of @hash's chain (other hashes may share it), or NULL. */
static inline xg_hlink_t *xg_htab_first(const xg_htab_t *tab, uint64_t hash)
{
    return (tab->b == NULL) ? NULL : tab->b[hash & tab->mask].head;
}

/* Mixes two 64-bit keys: every input bit affects every output bit. */
uint64_t xg_hash2(uint64_t a, uint64_t b);

#endif
