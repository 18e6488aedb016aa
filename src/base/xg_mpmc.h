/*
 * A bounded multi-producer multi-consumer queue of pointer-sized values
 * (after D. Vyukov's design): a power-of-two array of cells, each with a
 * sequence number that says whether it is free for the producer of lap
 * n or full for the consumer of lap n.  A producer claims a position with
 * one CAS on the tail, fills the cell and publishes it with a release
 * store of its sequence; a consumer does the same on the head.  No locks,
 * no allocation after init; push answers "full" and pop "empty" instead
 * of waiting.  Producers and consumers on different positions never
 * touch the same cell.
 */
#ifndef XG_MPMC_H
#define XG_MPMC_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/xg_compiler.h"

typedef struct xg_mpmc_cell {
    _Atomic uint64_t seq;
    uintptr_t value;
} xg_mpmc_cell_t;

typedef struct xg_mpmc {
    xg_mpmc_cell_t *cells;
    uint64_t mask;
    _Atomic uint64_t head XG_CACHE_ALIGNED; /* next position to pop */
    _Atomic uint64_t tail XG_CACHE_ALIGNED; /* next position to push */
} xg_mpmc_t;

/* Room for at least @capacity values; 0 on success, -1 without memory. */
static inline int xg_mpmc_init(xg_mpmc_t *q, uint64_t capacity)
{
    uint64_t n = 2, i;

    while (n < capacity) {
        n <<= 1;
    }
    q->cells = aligned_alloc(XG_CACHELINE, n * sizeof(*q->cells));
    if (q->cells == NULL) {
        return -1;
    }
    for (i = 0; i < n; i++) {
        atomic_init(&q->cells[i].seq, i);
        q->cells[i].value = 0;
    }
    q->mask = n - 1;
    atomic_init(&q->head, 0);
    atomic_init(&q->tail, 0);
    return 0;
}

static inline void xg_mpmc_fini(xg_mpmc_t *q)
{
    free(q->cells);
    q->cells = NULL;
}

/* 1 if @value was queued, 0 if the queue is full. */
static inline int xg_mpmc_push(xg_mpmc_t *q, uintptr_t value)
{
    uint64_t pos = atomic_load_explicit(&q->tail, memory_order_relaxed);
    xg_mpmc_cell_t *cell;
    int64_t dif;

    for (;;) {
        cell = &q->cells[pos & q->mask];
        /* acquire: the consumer of the previous lap is done with it */
        dif = (int64_t)(atomic_load_explicit(&cell->seq, memory_order_acquire) -
                        pos);
        if (dif == 0) {
            if (atomic_compare_exchange_weak_explicit(&q->tail, &pos, pos + 1,
                                                      memory_order_relaxed,
                                                      memory_order_relaxed)) {
                break;
            }
        } else if (dif < 0) {
            return 0;
        } else {
            pos = atomic_load_explicit(&q->tail, memory_order_relaxed);
        }
    }
    cell->value = value;
    /* release: the value before the consumer may see the cell full */
    atomic_store_explicit(&cell->seq, pos + 1, memory_order_release);
    return 1;
}

/* 1 with *value_p set if a value was taken, 0 if the queue is empty. */
static inline int xg_mpmc_pop(xg_mpmc_t *q, uintptr_t *value_p)
{
    uint64_t pos = atomic_load_explicit(&q->head, memory_order_relaxed);
    xg_mpmc_cell_t *cell;
    int64_t dif;

    for (;;) {
        cell = &q->cells[pos & q->mask];
        /* acquire: the producer's value */
        dif = (int64_t)(atomic_load_explicit(&cell->seq, memory_order_acquire) -
                        (pos + 1));
        if (dif == 0) {
            if (atomic_compare_exchange_weak_explicit(&q->head, &pos, pos + 1,
                                                      memory_order_relaxed,
                                                      memory_order_relaxed)) {
                break;
            }
        } else if (dif < 0) {
            return 0;
        } else {
            pos = atomic_load_explicit(&q->head, memory_order_relaxed);
        }
    }
    *value_p = cell->value;
    /* release: the producer of the next lap may reuse the cell */
    atomic_store_explicit(&cell->seq, pos + q->mask + 1, memory_order_release);
    return 1;
}

/* Takes up to @max values (in queue order) with one claim of the head, as
 * many as are ready there in a row: the cells a consumer claims are its
 * own, since a producer never writes a full cell.  Returns how many. */
static inline unsigned xg_mpmc_pop_many(xg_mpmc_t *q, uintptr_t *values,
                                        unsigned max)
{
    uint64_t pos = atomic_load_explicit(&q->head, memory_order_relaxed);
    xg_mpmc_cell_t *cell;
    unsigned n, i;

    for (;;) {
        for (n = 0; n < max; n++) {
            cell = &q->cells[(pos + n) & q->mask];
            if (atomic_load_explicit(&cell->seq, memory_order_acquire) !=
                pos + n + 1) {
                break;
            }
        }
        if (n == 0) {
            /* empty, or another consumer moved on: look again only if the
             * head moved */
            uint64_t now = atomic_load_explicit(&q->head, memory_order_relaxed);

            if (now == pos) {
                return 0;
            }
            pos = now;
            continue;
        }
        if (atomic_compare_exchange_weak_explicit(&q->head, &pos, pos + n,
                                                  memory_order_relaxed,
                                                  memory_order_relaxed)) {
            break;
        }
    }
    for (i = 0; i < n; i++) {
        cell      = &q->cells[(pos + i) & q->mask];
        values[i] = cell->value;
        atomic_store_explicit(&cell->seq, pos + i + q->mask + 1,
                              memory_order_release);
    }
    return n;
}

#endif
