/*
 * The symmetric heap: shmem_malloc, calloc, align, realloc, free and
 * malloc_with_hints.
 *
 * Symmetry is checked by value: each PE puts the addresses it got into its
 * row of a table on PE 0 (shmem_putmem), and PE 0 compares each with its
 * own view of that PE's object (see check_symmetric).  Besides: calloc
 * returns zeroed memory even where a freed block left data, zeroed before
 * any PE can store into it; every alignment from 64 bytes to 1 MiB is
 * honoured; realloc keeps the contents whether it grows in place, shrinks
 * or moves (a live block right after the object keeps it from growing in
 * place), and realloc(NULL) / realloc(p, 0) act as malloc / free; objects
 * are usable from other PEs; and a long deterministic sequence of
 * allocations and frees of mixed sizes stays symmetric with no two live
 * objects overlapping.
 */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "xg_test.h"

#define MAX_PES  64
#define MAX_LIVE 16
#define CYCLES   600

static uint64_t addr_table[MAX_PES][MAX_LIVE];
static int me, npes;

/*
 * All PEs got the same @count objects in @addrs, or the check fails.  With
 * PVAS partitioning the PEs' objects are at different addresses (each PE's
 * heap is its own partition of a region mapped at the same address in
 * every process); symmetric means that the object PE pe got is the one PE
 * 0 reaches as "its object on PE pe", i.e. its address equals what
 * shmem_ptr gives PE 0 for that PE.  A PE of another node has no
 * shmem_ptr: its objects (NULL where PE 0's are) must lie as far from its
 * first as PE 0's do.
 */
static void check_symmetric(void *const *addrs, int count, const char *what)
{
    uint64_t mine[MAX_LIVE], there;
    int pe, i, first = 0;

    for (i = 0; i < count; i++) {
        mine[i] = (uint64_t)(uintptr_t)addrs[i];
    }
    shmem_putmem(addr_table[me], mine, (size_t)count * sizeof(mine[0]), 0);
    shmem_barrier_all();
    while ((first < count - 1) && (mine[first] == 0)) {
        first++;
    }
    if (me == 0) {
        for (pe = 0; pe < npes; pe++) {
            for (i = 0; (i < count) && !XG_TEST_SAME_NODE(pe); i++) {
                XG_CHECK((mine[i] == 0)
                             ? (addr_table[pe][i] == 0)
                             : (addr_table[pe][i] - addr_table[pe][first] ==
                                mine[i] - mine[first]),
                         "%s: object %d is %#llx on PE %d of another node, "
                         "its object %d at %#llx",
                         what, i, (unsigned long long)addr_table[pe][i], pe,
                         first, (unsigned long long)addr_table[pe][first]);
            }
            for (i = 0; (i < count) && XG_TEST_SAME_NODE(pe); i++) {
                there = (uint64_t)(uintptr_t)shmem_ptr(addrs[i], pe);
                XG_CHECK(addr_table[pe][i] == there,
                         "%s: object %d is %#llx on PE %d, PE 0 reaches "
                         "it at %#llx",
                         what, i, (unsigned long long)addr_table[pe][i], pe,
                         (unsigned long long)there);
            }
        }
    }
    shmem_barrier_all();
}

static void check_one(void *ptr, const char *what)
{
    XG_CHECK(ptr != NULL, "%s returned NULL", what);
    check_symmetric(&ptr, 1, what);
}

/* The object is usable from another PE: write it there, read it back. */
static void check_remote_use(unsigned char *obj, size_t size)
{
    int peer = (me + 1) % npes;
    unsigned char pattern[256], back[256];
    size_t n = (size < sizeof(pattern)) ? size : sizeof(pattern);
    size_t i;

    for (i = 0; i < n; i++) {
        pattern[i] = (unsigned char)(me * 7 + i);
    }
    shmem_putmem(obj + size - n, pattern, n, peer);
    shmem_barrier_all();
    shmem_getmem(back, obj + size - n, n, peer);
    XG_CHECK(memcmp(back, pattern, n) == 0, "remote use of %zu bytes", size);
    shmem_barrier_all();
}

static void test_basic(void)
{
    unsigned char *p;
    long *hinted, *words;
    int prev = (me + npes - 1) % npes, round;
    size_t i;

    XG_CHECK(shmem_malloc(0) == NULL, "shmem_malloc(0)");
    shmem_free(NULL);

    p = shmem_malloc(1000);
    check_one(p, "shmem_malloc");
    check_remote_use(p, 1000);
    memset(p, 0xa5, 1000);
    shmem_free(p);

    /* the block just freed held 0xa5 bytes; calloc must clear them */
    p = shmem_calloc(125, 8);
    check_one(p, "shmem_calloc");
    for (i = 0; i < 1000; i++) {
        XG_CHECK(p[i] == 0, "calloc byte %zu is %#x", i, p[i]);
    }
    shmem_free(p);
    XG_CHECK(shmem_calloc(0, 8) == NULL, "shmem_calloc(0, 8)");

    /* calloc'd memory is zero on every PE before calloc returns on any:
     * a PE may store into its neighbour's new object right away */
    for (round = 0; round < 20; round++) {
        words = shmem_calloc((size_t)npes, sizeof(long));
        XG_CHECK(words != NULL, "shmem_calloc");
        shmem_long_p(&words[me], me + 1, (me + 1) % npes);
        shmem_barrier_all();
        for (i = 0; i < (size_t)npes; i++) {
            XG_CHECK(words[i] == ((i == (size_t)prev) ? prev + 1 : 0),
                     "calloc round %d: word %zu is %ld", round, i, words[i]);
        }
        check_one(words, "shmem_calloc");
        shmem_free(words);
    }

    hinted =
        shmem_malloc_with_hints(64 * sizeof(long), SHMEM_MALLOC_ATOMICS_REMOTE);
    check_one(hinted, "shmem_malloc_with_hints(ATOMICS_REMOTE)");
    hinted[0] = 0;
    shmem_barrier_all();
    shmem_long_atomic_inc(hinted, 0);
    shmem_barrier_all();
    XG_CHECK((me != 0) || (hinted[0] == npes), "atomics on a hinted object");
    shmem_free(hinted);
    hinted = shmem_malloc_with_hints(100, 0);
    check_one(hinted, "shmem_malloc_with_hints(0)");
    shmem_free(hinted);
    hinted = shmem_malloc_with_hints(100, SHMEM_MALLOC_ATOMICS_REMOTE |
                                              SHMEM_MALLOC_SIGNAL_REMOTE);
    check_one(hinted, "shmem_malloc_with_hints(both)");
    shmem_free(hinted);
}

static void test_align(void)
{
    size_t align;
    void *small, *p;

    /* an odd-sized object first, so alignment is not for free */
    small = shmem_malloc(24);
    for (align = 64; align <= (1u << 20); align *= 2) {
        p = shmem_align(align, 100);
        check_one(p, "shmem_align");
        XG_CHECK(((uintptr_t)p % align) == 0, "%p is not aligned to %zu", p,
                 align);
        check_remote_use(p, 100);
        shmem_free(p);
    }
    shmem_free(small);
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
    size_t i;

    for (i = 0; i < n; i++) {
        p[i] = (unsigned char)(seed + i * 13);
    }
}

static void check_fill(const unsigned char *p, size_t n, unsigned seed,
                       const char *what)
{
    size_t i;

    for (i = 0; i < n; i++) {
        XG_CHECK(p[i] == (unsigned char)(seed + i * 13), "%s: byte %zu", what,
                 i);
    }
}

static void test_realloc(void)
{
    unsigned char *p, *blocker, *q;

    p       = shmem_malloc(256);
    blocker = shmem_malloc(256);
    fill(p, 256, me + 1);
    fill(blocker, 256, me + 2);
    /* blocker keeps p from growing in place: realloc moves it */
    q = shmem_realloc(p, 1u << 20);
    check_one(q, "shmem_realloc (grow past a live block)");
    check_fill(q, 256, me + 1, "realloc grow");
    check_fill(blocker, 256, me + 2, "block after a realloc'd object");
    check_remote_use(q, 1u << 20);
    /* shrink: the first bytes stay */
    fill(q, 4096, me + 3);
    p = shmem_realloc(q, 100);
    check_one(p, "shmem_realloc (shrink)");
    check_fill(p, 100, me + 3, "realloc shrink");
    /* grow in place once the blocker is gone */
    shmem_free(blocker);
    q = shmem_realloc(p, 4096);
    check_one(q, "shmem_realloc (grow)");
    check_fill(q, 100, me + 3, "realloc grow in place");
    /* realloc(p, 0) frees; realloc(NULL, n) allocates */
    XG_CHECK(shmem_realloc(q, 0) == NULL, "shmem_realloc(p, 0)");
    p = shmem_realloc(NULL, 512);
    check_one(p, "shmem_realloc(NULL, 512)");
    shmem_free(p);
}

/* Deterministic pseudo-random numbers, the same sequence on every PE. */
static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 16) & 0x7fff;
}

static void test_cycles(void)
{
    unsigned char *live[MAX_LIVE] = {0};
    size_t sizes[MAX_LIVE]        = {0};
    unsigned state                = 42;
    int cycle, slot, i;

    for (cycle = 0; cycle < CYCLES; cycle++) {
        slot = (int)(next_random(&state) % MAX_LIVE);
        if (live[slot] != NULL) {
            check_fill(live[slot], sizes[slot], (unsigned)slot, "live object");
            shmem_free(live[slot]);
            live[slot] = NULL;
        } else {
            sizes[slot] = 1 + next_random(&state) * (1 + slot % 4);
            live[slot]  = (next_random(&state) % 4 == 0)
                              ? shmem_align(256, sizes[slot])
                              : shmem_malloc(sizes[slot]);
            XG_CHECK(live[slot] != NULL, "cycle %d: allocation", cycle);
            fill(live[slot], sizes[slot], (unsigned)slot);
        }
        if (cycle % 50 == 0) {
            check_symmetric((void *const *)live, MAX_LIVE, "cycles");
        }
    }
    check_symmetric((void *const *)live, MAX_LIVE, "cycles");
    for (i = 0; i < MAX_LIVE; i++) {
        if (live[i] != NULL) {
            check_fill(live[i], sizes[i], (unsigned)i, "live object");
            shmem_free(live[i]);
        }
    }
}

int main(void)
{
    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    if (npes > MAX_PES) {
        shmem_finalize();
        return XG_TEST_SKIP;
    }
    test_basic();
    test_align();
    test_realloc();
    test_cycles();
    shmem_finalize();
    return XG_TEST_PASS;
}
