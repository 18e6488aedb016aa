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
 *
 * With XGAS_TEST_MAPS_PER_PE_MAX set, PE 0 also counts the node's memory
 * mappings once every PE has initialized (/proc/self/maps: the one
 * address space's) and checks the mean per PE: what bounds the PEs of a
 * PVAS node under vm.max_map_count (docs/pvas.md).
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
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

/* Lines of /proc/self/maps: the mappings of this address space. */
static long count_mappings(void)
{
    FILE *maps = fopen("/proc/self/maps", "re");
    long lines = 0;
    int c;

    XG_CHECK(maps != NULL, "cannot open /proc/self/maps");
    while ((c = getc(maps)) != EOF) {
        lines += (c == '\n');
    }
    fclose(maps);
    return lines;
}

static void check_mappings(int npes)
{
    const char *text = getenv("XGAS_TEST_MAPS_PER_PE_MAX");
    long lines;

    if ((text == NULL) || (shmem_my_pe() != 0)) {
        return;
    }
    lines = count_mappings();
    printf("%ld mappings for %d PEs: %.1f per PE\n", lines, npes,
           (double)lines / npes);
    XG_CHECK(lines <= atol(text) * npes,
             "%ld mappings for %d PEs, more than %s per PE: a PE maps more "
             "libraries or areas than before (docs/pvas.md, Limits)",
             lines, npes, text);
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
    check_mappings(npes);
    pe = (me + npes - 1) % npes;
    XG_CHECK(*heap_word == 1000 + pe, "heap word %ld, expected %d", *heap_word,
             1000 + pe);
    XG_CHECK(global_word == 2000 + pe, "global word %ld, expected %d",
             global_word, 2000 + pe);
    shmem_free(heap_word);
    shmem_finalize();
    return XG_TEST_PASS;
}
