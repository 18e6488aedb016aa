/*
 * Unit test of the namespace table and the NLB (src/gas): with a 2-entry
 * NLB, alternating between two namespaces hits after the first two misses,
 * cycling over three always misses (LRU), and the namespace table follows
 * allocation and free (the heap extent grows and shrinks).
 */
#include "gas/xg_gas.h"
#include "xg_test.h"
#include "xgas.h"

static void counts(uint64_t *hits, uint64_t *misses)
{
    xg_gas_nlb_stats(hits, misses);
}

int main(void)
{
    uint64_t h0, m0, h1, m1;
    long *obj;
    int me, npes, i;

    XG_CHECK(xg_init() == XG_OK, "xg_init");
    me         = xg_rank();
    npes       = xg_size();
    xg_test_pe = me;
    XG_CHECK(xg_gas.nlb_size == 2, "XGAS_NLB_SIZE=2 not applied");
    XG_CHECK(xg_malloc(64, (void **)&obj) == XG_OK, "alloc");

    /* the extent covers the object, and only it */
    XG_CHECK(xg_gas_translate(obj, 64, me) != NULL, "object not mapped");
    XG_CHECK(xg_gas_translate(obj, 65, me) == NULL, "range past the end");
    XG_CHECK(xg_gas_diagnose(obj, 65, me) == XG_ERR_OUT_OF_BOUNDS,
             "diagnosis of a long range");
    XG_CHECK(xg_gas_diagnose(obj + 100, 8, me) == XG_ERR_NOT_SYMMETRIC,
             "address above the heap top");
    XG_CHECK(xg_gas_diagnose(&me, 4, me) == XG_ERR_NOT_SYMMETRIC,
             "stack address");
    XG_CHECK(xg_gas_diagnose(obj, 8, npes) == XG_ERR_PE_RANGE, "PE range");

    if (npes >= 3) {
        /* warm, then alternate between two namespaces: all hits */
        xg_gas_translate(obj, 8, 0);
        xg_gas_translate(obj, 8, 1);
        counts(&h0, &m0);
        for (i = 0; i < 100; i++) {
            XG_CHECK(xg_gas_translate(obj, 8, i % 2) != NULL, "translate");
        }
        counts(&h1, &m1);
        XG_CHECK((h1 - h0 == 100) && (m1 == m0),
                 "alternating two: %llu hits "
                 "%llu misses",
                 (unsigned long long)(h1 - h0), (unsigned long long)(m1 - m0));
        /* three namespaces in a cycle thrash a 2-entry LRU (starting with
         * the one not cached: the NLB holds 1 and 0 now) */
        for (i = 0; i < 99; i++) {
            XG_CHECK(xg_gas_translate(obj, 8, (i + 2) % 3) != NULL,
                     "translate");
        }
        counts(&h0, &m0);
        XG_CHECK((h0 == h1) && (m0 - m1 == 99),
                 "cycling three: %llu hits "
                 "%llu misses",
                 (unsigned long long)(h0 - h1), (unsigned long long)(m0 - m1));
    }

    /* the table follows free: the object is gone from every namespace */
    XG_CHECK(xg_free(obj) == XG_OK, "free");
    XG_CHECK(xg_gas_translate(obj, 8, 0) == NULL, "freed object reachable");
    XG_CHECK(xg_fini() == XG_OK, "xg_fini");
    return 0;
}
