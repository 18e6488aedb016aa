/*
 * Unit tests of the symmetric heap allocator (src/mem/heap.c): placement,
 * alignment, coalescing, realloc, exhaustion, bad frees, and determinism --
 * two heaps driven by the same random call sequence must return the same
 * offsets, which is what makes shmem_malloc symmetric.
 */
#include <stdlib.h>
#include <string.h>

#include "mem/xg_heap.h"
#include "xg_test.h"

#define HEAP_SIZE (1u << 20)
#define SLOTS     64

typedef struct {
    void *ptr;
    size_t size;
} slot_t;

static unsigned long rng_state = 12345;

static unsigned long rng(void)
{
    rng_state = rng_state * 6364136223846793005UL + 1442695040888963407UL;
    return rng_state >> 33;
}

static void check_no_overlap(const slot_t *slots, uintptr_t base)
{
    int i, j;

    for (i = 0; i < SLOTS; i++) {
        uintptr_t a = (uintptr_t)slots[i].ptr;

        if (slots[i].ptr == NULL) {
            continue;
        }
        XG_CHECK((a >= base) && (a + slots[i].size <= base + HEAP_SIZE),
                 "block %d outside the heap", i);
        for (j = 0; j < i; j++) {
            uintptr_t b = (uintptr_t)slots[j].ptr;

            if (slots[j].ptr == NULL) {
                continue;
            }
            XG_CHECK((a + slots[i].size <= b) || (b + slots[j].size <= a),
                     "blocks %d and %d overlap", i, j);
        }
    }
}

static void test_basic(void)
{
    static char buffer[HEAP_SIZE] __attribute__((aligned(65536)));
    xg_heap_t heap;
    void *a, *b, *c, *moved;
    size_t align;

    XG_CHECK(xg_heap_init(&heap, (uintptr_t)buffer, HEAP_SIZE, 65536) == XG_OK,
             "init");
    XG_CHECK(xg_heap_top(&heap) == 0, "empty heap has top 0");
    XG_CHECK(xg_heap_alloc(&heap, 0, 16, &a) == XG_ERR_INVALID_PARAM,
             "size 0 accepted");
    XG_CHECK(xg_heap_alloc(&heap, 100, 16, &a) == XG_OK, "alloc 100");
    XG_CHECK(a == buffer, "first block at the start");
    XG_CHECK(xg_heap_top(&heap) == 112, "top after one block: %llu",
             (unsigned long long)xg_heap_top(&heap));
    for (align = 32; align <= 65536; align *= 2) {
        XG_CHECK(xg_heap_alloc(&heap, 8, align, &b) == XG_OK, "align %zu",
                 align);
        XG_CHECK(((uintptr_t)b % align) == 0, "alignment %zu broken", align);
        XG_CHECK(xg_heap_free(&heap, b) == XG_OK, "free aligned");
    }
    XG_CHECK(xg_heap_alloc(&heap, 3, 24, &b) == XG_ERR_INVALID_PARAM,
             "non-power-of-two alignment accepted");
    XG_CHECK(xg_heap_alloc(&heap, 3, 131072, &b) == XG_ERR_INVALID_PARAM,
             "alignment above the heap's maximum accepted");

    /* coalescing: free a, then b and c merge back to one block */
    XG_CHECK(xg_heap_alloc(&heap, 1000, 16, &b) == XG_OK, "alloc b");
    XG_CHECK(xg_heap_alloc(&heap, 1000, 16, &c) == XG_OK, "alloc c");
    XG_CHECK(xg_heap_free(&heap, b) == XG_OK, "free b");
    XG_CHECK(xg_heap_free(&heap, b) == XG_ERR_NOT_SYMMETRIC, "double free");
    XG_CHECK(xg_heap_free(&heap, (char *)c + 16) == XG_ERR_NOT_SYMMETRIC,
             "interior pointer freed");
    XG_CHECK(xg_heap_free(&heap, &heap) == XG_ERR_NOT_SYMMETRIC,
             "foreign pointer freed");

    /* realloc in place (the freed b follows a) and with a move */
    memset(a, 0x5a, 100);
    XG_CHECK(xg_heap_realloc(&heap, a, 600, &moved) == XG_OK, "grow a");
    XG_CHECK(moved == a, "a grew in place into free b");
    XG_CHECK(xg_heap_realloc(&heap, a, 5000, &moved) == XG_OK, "move a");
    XG_CHECK(moved != a, "a should have moved past c");
    XG_CHECK(((unsigned char *)moved)[99] == 0x5a, "contents lost on move");
    XG_CHECK(xg_heap_realloc(&heap, moved, 32, &a) == XG_OK, "shrink");
    XG_CHECK(a == moved, "shrink stays in place");

    XG_CHECK(xg_heap_free(&heap, a) == XG_OK, "free a");
    XG_CHECK(xg_heap_free(&heap, c) == XG_OK, "free c");
    XG_CHECK(heap.count == 1, "heap did not coalesce (%zu blocks)", heap.count);
    XG_CHECK(heap.in_use == 0, "in_use %llu after freeing all",
             (unsigned long long)heap.in_use);

    /* exhaustion and recovery */
    XG_CHECK(xg_heap_alloc(&heap, HEAP_SIZE + 1, 16, &a) == XG_ERR_NO_MEMORY,
             "oversize alloc");
    XG_CHECK(xg_heap_alloc(&heap, HEAP_SIZE, 16, &a) == XG_OK, "whole heap");
    XG_CHECK(xg_heap_alloc(&heap, 16, 16, &b) == XG_ERR_NO_MEMORY,
             "alloc from a full heap");
    XG_CHECK(xg_heap_largest_free(&heap) == 0, "largest free in a full heap");
    XG_CHECK(xg_heap_free(&heap, a) == XG_OK, "free whole heap");
    XG_CHECK(xg_heap_largest_free(&heap) == HEAP_SIZE, "largest free");
    xg_heap_fini(&heap);
}

/* Runs the same random sequence on two heaps; offsets must agree, blocks
 * must never overlap, and top must bound every live block. */
static void test_deterministic_random(void)
{
    static char buf1[HEAP_SIZE] __attribute__((aligned(4096)));
    static char buf2[HEAP_SIZE] __attribute__((aligned(4096)));
    slot_t s1[SLOTS] = {{0}}, s2[SLOTS] = {{0}};
    xg_heap_t h1, h2;
    int step, i;

    xg_heap_init(&h1, (uintptr_t)buf1, HEAP_SIZE, 4096);
    xg_heap_init(&h2, (uintptr_t)buf2, HEAP_SIZE, 4096);
    for (step = 0; step < 20000; step++) {
        int k        = (int)(rng() % SLOTS);
        size_t size  = 1 + rng() % ((rng() % 8 == 0) ? 65536 : 512);
        size_t align = (size_t)1 << (rng() % 10);
        xg_status_t r1, r2;
        void *p1 = NULL, *p2 = NULL;

        if (s1[k].ptr == NULL) {
            r1 = xg_heap_alloc(&h1, size, align, &p1);
            r2 = xg_heap_alloc(&h2, size, align, &p2);
        } else if (rng() % 3 == 0) {
            r1 = xg_heap_realloc(&h1, s1[k].ptr, size, &p1);
            r2 = xg_heap_realloc(&h2, s2[k].ptr, size, &p2);
        } else {
            r1   = xg_heap_free(&h1, s1[k].ptr);
            r2   = xg_heap_free(&h2, s2[k].ptr);
            size = 0;
        }
        XG_CHECK(r1 == r2, "step %d: results differ", step);
        if (r1 != XG_OK) {
            continue;
        }
        XG_CHECK((p1 == NULL) || ((char *)p1 - buf1 == (char *)p2 - buf2),
                 "step %d: offsets differ", step);
        s1[k] = (slot_t){p1, size};
        s2[k] = (slot_t){p2, size};
        if (step % 500 == 0) {
            check_no_overlap(s1, (uintptr_t)buf1);
            for (i = 0; i < SLOTS; i++) {
                XG_CHECK((s1[i].ptr == NULL) ||
                             ((char *)s1[i].ptr - buf1 + s1[i].size <=
                              xg_heap_top(&h1)),
                         "block %d above top", i);
            }
        }
    }
    xg_heap_fini(&h1);
    xg_heap_fini(&h2);
}

/* The agreement xg_gas_region_alloc runs over a group: heaps that differ
 * (one allocated blocks the others did not) propose their fits until all
 * agree; the block then sits at the same offset in every heap, free in
 * each before, and alloc_at refuses a range that is taken. */
static void test_agreed_placement(void)
{
    enum {
        HEAPS      = 3,
        AGREE_SIZE = 3000
    };
    static char bufs[HEAPS][HEAP_SIZE] __attribute__((aligned(65536)));
    xg_heap_t heaps[HEAPS];
    void *p, *q;
    uint64_t cand = 0, fit, best;
    int h, rounds = 0, agreed = 0;

    for (h = 0; h < HEAPS; h++) {
        XG_CHECK(xg_heap_init(&heaps[h], (uintptr_t)bufs[h], HEAP_SIZE,
                              65536) == XG_OK,
                 "init");
    }
    /* heap 1 has a block at 0, heap 2 one further on with a hole before */
    XG_CHECK(xg_heap_alloc(&heaps[1], 4096, 16, &p) == XG_OK, "alloc");
    XG_CHECK(xg_heap_alloc(&heaps[2], 1024, 16, &p) == XG_OK, "alloc");
    XG_CHECK(xg_heap_alloc(&heaps[2], 8192, 16, &q) == XG_OK, "alloc");
    XG_CHECK(xg_heap_free(&heaps[2], p) == XG_OK, "free");
    while (!agreed) {
        best   = 0;
        agreed = 1;
        for (h = 0; h < HEAPS; h++) {
            XG_CHECK(xg_heap_fit(&heaps[h], AGREE_SIZE, 64, cand, &fit) ==
                         XG_OK,
                     "fit");
            XG_CHECK((fit >= cand) && (fit % 64 == 0), "fit %llu",
                     (unsigned long long)fit);
            agreed &= (fit == cand);
            best = (fit > best) ? fit : best;
        }
        cand = best;
        XG_CHECK(++rounds < 10, "no agreement after %d rounds", rounds);
    }
    XG_CHECK(cand == 1024 + 8192, "agreed on %llu, expected 9216",
             (unsigned long long)cand);
    for (h = 0; h < HEAPS; h++) {
        XG_CHECK(xg_heap_alloc_at(&heaps[h], cand, AGREE_SIZE, &p) == XG_OK,
                 "alloc_at on heap %d", h);
        XG_CHECK((char *)p - bufs[h] == (long)cand, "placed elsewhere");
        XG_CHECK(xg_heap_alloc_at(&heaps[h], cand + 64, 16, &q) ==
                     XG_ERR_NO_MEMORY,
                 "alloc_at inside a used block");
    }
    XG_CHECK(xg_heap_alloc_at(&heaps[0], 8, 16, &q) == XG_ERR_INVALID_PARAM,
             "misaligned offset");
    XG_CHECK(xg_heap_fit(&heaps[0], HEAP_SIZE, 16, 0, &fit) == XG_ERR_NO_MEMORY,
             "fit of a size that no hole holds");
    /* the taken range is free again after a free */
    XG_CHECK(xg_heap_free(&heaps[0], (char *)bufs[0] + cand) == XG_OK, "free");
    XG_CHECK(xg_heap_alloc_at(&heaps[0], cand, AGREE_SIZE, &p) == XG_OK,
             "alloc_at after the free");
    for (h = 0; h < HEAPS; h++) {
        xg_heap_fini(&heaps[h]);
    }
}

int main(void)
{
    test_basic();
    test_agreed_placement();
    test_deterministic_random();
    printf("unit_heap: passed\n");
    return 0;
}
