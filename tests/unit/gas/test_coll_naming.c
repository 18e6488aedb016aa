/*
 * The collective engine's failure messages without a binding's names: two
 * PEs make the heap agreement with different sizes under the native API,
 * and the job ends with gas's own words (checked by the test's regular
 * expression), not OpenSHMEM's.  Run on 2 PEs.
 */
#include "gas/coll/xg_coll.h"
#include "xg_test.h"
#include "xgas.h"

int main(void)
{
    XG_CHECK(xg_init() == XG_OK, "xg_init");
    xg_test_pe = xg_rank();
    xg_coll_heap(XG_COLL_HEAP_MALLOC, 64 * (uint64_t)(xg_rank() + 1), 0);
    XG_CHECK(0, "mismatched sizes passed the agreement");
    return XG_TEST_FAIL;
}
