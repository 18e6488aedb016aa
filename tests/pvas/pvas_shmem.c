/*
 * OpenSHMEM in a PVAS node (xgasrun --pvas): every PE's partition is its
 * segment, so shmem_ptr of a heap object and of a global gives, for every
 * PE of the node, the local address plus (pe - me) * segment size, pe and
 * me counted among the PEs of the node (SHMEM_TEAM_SHARED) -- the PVAS
 * formula -- and a store through it is seen by the owner.  PEs of other
 * (virtual) nodes have no pointer (shmem_ptr is NULL); a put reaches
 * them.  The
 * globals are the program's own, in place (no window): their address is
 * inside this PE's segment before and after shmem_init.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xg_test.h"

static long global_word;
static char global_page[4096];

static uintptr_t segment_size(void)
{
    const char *text = getenv("XGAS_PVAS_SEGMENT_SIZE");

    return (text != NULL) ? (uintptr_t)strtoull(text, NULL, 0)
                          : (uintptr_t)64 << 30;
}

/* 1 if shmem_ptr(@local, @pe) is what the PVAS formula says. */
static int check_ptr(const void *local, int pe)
{
    int mine = shmem_team_my_pe(SHMEM_TEAM_SHARED);
    int theirs =
        shmem_team_translate_pe(SHMEM_TEAM_WORLD, pe, SHMEM_TEAM_SHARED);
    uintptr_t want = (uintptr_t)local + (uintptr_t)((intptr_t)(theirs - mine) *
                                                    (intptr_t)segment_size());

    if (theirs < 0) {
        return shmem_ptr(local, pe) == NULL;
    }
    return (uintptr_t)shmem_ptr(local, pe) == want;
}

int main(void)
{
    const void *before = &global_word;
    long *heap_word;
    int me, npes, pe;

    shmem_init();
    me         = shmem_my_pe();
    xg_test_pe = me;
    npes       = shmem_n_pes();
    heap_word  = shmem_malloc(sizeof(*heap_word));
    XG_CHECK(heap_word != NULL, "shmem_malloc failed");
    XG_CHECK((void *)&global_word == before, "the globals moved");
    for (pe = 0; pe < npes; pe++) {
        XG_CHECK(check_ptr(heap_word, pe),
                 "shmem_ptr(heap, %d) = %p is not the PVAS address", pe,
                 shmem_ptr(heap_word, pe));
        XG_CHECK(check_ptr(&global_word, pe),
                 "shmem_ptr(global, %d) = %p is not the PVAS address", pe,
                 shmem_ptr(&global_word, pe));
        XG_CHECK(check_ptr(&global_page[4095], pe),
                 "shmem_ptr(global_page end, %d) is not the PVAS address", pe);
    }
    /* each PE puts its rank into its right neighbour's words (a store on
     * the node, the NIC to another node) */
    pe = (me + 1) % npes;
    shmem_long_p(heap_word, 1000 + me, pe);
    shmem_long_p(&global_word, 2000 + me, pe);
    shmem_barrier_all();
    pe = (me + npes - 1) % npes;
    XG_CHECK(*heap_word == 1000 + pe, "heap word %ld, expected %d", *heap_word,
             1000 + pe);
    XG_CHECK(global_word == 2000 + pe, "global word %ld, expected %d",
             global_word, 2000 + pe);
    shmem_free(heap_word);
    shmem_finalize();
    return XG_TEST_PASS;
}
