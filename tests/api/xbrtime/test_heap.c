/*
 * xbrtime_malloc and xbrtime_free: collective symmetric allocation.  Zero
 * bytes and more than the heap give NULL on every PE (with a message for
 * the latter), objects are reachable on every PE, freeing makes room for
 * the next object, and a heap object and a global can be mixed.
 */
#include <stdint.h>

#include "xbr_test.h"

int main(void)
{
    int me, npes, pe, i;
    uint64_t *a, *b, *c;

    xbr_test_start(&me, &npes);

    XG_CHECK(xbrtime_malloc(0) == NULL, "0 bytes give NULL");
    XG_CHECK(xbrtime_malloc((size_t)1 << 60) == NULL,
             "more than the heap gives NULL");

    a = xbrtime_malloc(8);
    b = xbrtime_malloc(32768);
    XG_CHECK((a != NULL) && (b != NULL), "malloc %p %p", (void *)a, (void *)b);
    XG_CHECK(((uintptr_t)a % 8 == 0) && ((uintptr_t)b % 8 == 0), "aligned");
    for (pe = 0; pe < npes; pe++) {
        XG_CHECK(xbrtime_addr_accessible(a, pe), "a on PE %d", pe);
        XG_CHECK(xbrtime_addr_accessible(&b[4095], pe), "end of b on PE %d",
                 pe);
    }
    /* each PE writes its number into a on the next PE */
    *a = 0;
    for (i = 0; i < 4096; i++) {
        b[i] = (uint64_t)me;
    }
    xbrtime_barrier();
    xbrtime_uint64_put(a, &b[0], 1, 1, (me + 1) % npes);
    xbrtime_barrier();
    XG_CHECK(*a == (uint64_t)((me + npes - 1) % npes), "a holds %llu",
             (unsigned long long)*a);

    /* a freed object's room is used again */
    xbrtime_free(b);
    c = xbrtime_malloc(32768);
    XG_CHECK(c == b, "the freed room is reused: %p, was %p", (void *)c,
             (void *)b);
    xbrtime_free(c);
    xbrtime_free(NULL);
    xbrtime_free(a);
    xbrtime_close();
    return XG_TEST_PASS;
}
