/*
 * Setup and query routines: shmem_init/finalize, my_pe/n_pes,
 * pe_accessible, addr_accessible, shmem_ptr and the library information
 * routines.
 *
 * Symmetric memory is the heap and the global and static variables; a
 * stack array or a malloc'd buffer is not, so addr_accessible gives 0 and
 * shmem_ptr NULL for them on every PE.  shmem_ptr of heap and global
 * objects is non-NULL for every PE of the node and usable: each PE writes
 * its own slot of every PE's arrays through the pointers, and after a
 * barrier each owner finds every slot written.
 */
#include <limits.h>
#include <shmem.h>
#include <stdlib.h>
#include <string.h>

#include "xg_test.h"

#define MAX_PES 64

long global_slots[MAX_PES];
static int static_word;
static int npes_seen_by_pe0;

static void check_accessible(const void *addr, int expect, const char *what)
{
    int pe, npes = shmem_n_pes();

    for (pe = 0; pe < npes; pe++) {
        XG_CHECK(shmem_addr_accessible(addr, pe) == expect,
                 "addr_accessible(%s, %d) != %d", what, pe, expect);
        XG_CHECK((shmem_ptr(addr, pe) != NULL) ==
                     (expect && XG_TEST_SAME_NODE(pe)),
                 "shmem_ptr(%s, %d) %s NULL", what, pe,
                 (shmem_ptr(addr, pe) == NULL) ? "is" : "is not");
    }
    XG_CHECK(shmem_addr_accessible(addr, npes) == 0, "%s on PE npes", what);
    XG_CHECK(shmem_addr_accessible(addr, -1) == 0, "%s on PE -1", what);
    XG_CHECK(shmem_ptr(addr, npes) == NULL, "shmem_ptr(%s, npes)", what);
}

int main(void)
{
    char name[SHMEM_MAX_NAME_LEN], stack_buf[64];
    long *heap_slots, *remote;
    int me, npes, pe, major = 0, minor = 0, level = -1;
    char *private_buf = malloc(64);

    XG_CHECK(private_buf != NULL, "malloc");
    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    XG_CHECK((npes >= 1) && (me >= 0) && (me < npes), "pe %d of %d", me, npes);
    if (npes > MAX_PES) {
        shmem_finalize();
        return XG_TEST_SKIP;
    }

    /* every PE agrees on the number of PEs */
    if (me == 0) {
        npes_seen_by_pe0 = npes;
    }
    shmem_barrier_all();
    XG_CHECK(shmem_int_g(&npes_seen_by_pe0, 0) == npes, "n_pes differs");

    shmem_query_thread(&level);
    XG_CHECK((level >= SHMEM_THREAD_SINGLE) && (level <= SHMEM_THREAD_MULTIPLE),
             "query_thread gave %d", level);

    shmem_info_get_version(&major, &minor);
    XG_CHECK((major == 1) && (minor == 6), "version %d.%d", major, minor);
    XG_CHECK((SHMEM_MAJOR_VERSION == 1) && (SHMEM_MINOR_VERSION == 6),
             "version constants");
    memset(name, 'x', sizeof(name));
    shmem_info_get_name(name);
    XG_CHECK(memchr(name, '\0', sizeof(name)) != NULL, "name unterminated");
    XG_CHECK(strcmp(name, SHMEM_VENDOR_STRING) == 0, "name '%s'", name);

    for (pe = 0; pe < npes; pe++) {
        XG_CHECK(shmem_pe_accessible(pe) == 1, "pe_accessible(%d)", pe);
    }
    XG_CHECK(shmem_pe_accessible(npes) == 0, "pe_accessible(npes)");
    XG_CHECK(shmem_pe_accessible(-1) == 0, "pe_accessible(-1)");
    XG_CHECK(shmem_pe_accessible(INT_MAX) == 0, "pe_accessible(INT_MAX)");
    XG_CHECK(shmem_pe_accessible(INT_MIN) == 0, "pe_accessible(INT_MIN)");

    heap_slots = shmem_malloc(MAX_PES * sizeof(long));
    XG_CHECK(heap_slots != NULL, "shmem_malloc");
    check_accessible(heap_slots, 1, "heap");
    check_accessible(&heap_slots[MAX_PES - 1], 1, "end of a heap object");
    check_accessible(global_slots, 1, "global");
    check_accessible(&static_word, 1, "static");
    check_accessible(stack_buf, 0, "stack");
    check_accessible(private_buf, 0, "malloc'd");

    /* write my slot of every PE's arrays through shmem_ptr (with puts to
     * the PEs of other nodes) */
    for (pe = 0; pe < npes; pe++) {
        if (!XG_TEST_SAME_NODE(pe)) {
            shmem_long_p(&heap_slots[me], 1000L * me + pe, pe);
            shmem_long_p(&global_slots[me], 2000L * me + pe, pe);
            continue;
        }
        remote  = shmem_ptr(&heap_slots[me], pe);
        *remote = 1000L * me + pe;
        remote  = shmem_ptr(&global_slots[me], pe);
        *remote = 2000L * me + pe;
    }
    shmem_barrier_all();
    for (pe = 0; pe < npes; pe++) {
        XG_CHECK(heap_slots[pe] == 1000L * pe + me, "heap slot %d holds %ld",
                 pe, heap_slots[pe]);
        XG_CHECK(global_slots[pe] == 2000L * pe + me,
                 "global slot %d holds %ld", pe, global_slots[pe]);
    }
    shmem_barrier_all();
    shmem_free(heap_slots);

    shmem_finalize();
    free(private_buf);
    return XG_TEST_PASS;
}
