/*
 * OpenSHMEM 1.6 behaviours the public suites and the specification's own
 * examples rely on:
 *  - shmem_ctx_fence, shmem_ctx_quiet and shmem_ctx_pe_quiet on
 *    SHMEM_CTX_INVALID do nothing (the specification's
 *    shmem_team_create_ctx example quiets the context a PE outside the
 *    team could not create);
 *  - shmem_ptr(dest, my_pe) and shmem_team_ptr(team, dest, my team PE)
 *    return dest itself, for a global as for a heap object.
 */
#include <shmem.h>

#include "xg_test.h"

static long global_value = 42;

int main(void)
{
    shmem_team_t evens = SHMEM_TEAM_INVALID;
    shmem_ctx_t ctx    = SHMEM_CTX_INVALID;
    long *heap;
    int me, npes;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;

    /* the specification's pattern: only the even PEs are in the team */
    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (npes + 1) / 2, NULL, 0,
                             &evens);
    if (evens == SHMEM_TEAM_INVALID ||
        shmem_team_create_ctx(evens, 0, &ctx) != 0) {
        ctx = SHMEM_CTX_INVALID;
    }
    XG_CHECK((me % 2 == 1) == (ctx == SHMEM_CTX_INVALID),
             "context creation on the even team");
    shmem_ctx_fence(ctx);
    shmem_ctx_quiet(ctx);
    shmem_ctx_pe_quiet(ctx, 0);
    shmem_ctx_fence(SHMEM_CTX_INVALID);
    shmem_ctx_quiet(SHMEM_CTX_INVALID);
    shmem_ctx_pe_quiet(SHMEM_CTX_INVALID, npes + 5);
    if (ctx != SHMEM_CTX_INVALID) {
        shmem_ctx_destroy(ctx);
    }
    if (evens != SHMEM_TEAM_INVALID) {
        shmem_team_destroy(evens);
    }

    /* shmem_ptr to oneself */
    heap = shmem_malloc(sizeof(long));
    XG_CHECK(heap != NULL, "shmem_malloc");
    XG_CHECK(shmem_ptr(&global_value, me) == (void *)&global_value,
             "shmem_ptr(&global, me) = %p, not the global at %p",
             shmem_ptr(&global_value, me), (void *)&global_value);
    XG_CHECK(shmem_ptr(heap, me) == (void *)heap, "shmem_ptr(heap, me)");
    XG_CHECK(shmem_team_ptr(SHMEM_TEAM_WORLD, &global_value, me) ==
                 (void *)&global_value,
             "shmem_team_ptr(world, &global, me)");
    XG_CHECK(shmem_team_ptr(SHMEM_TEAM_SHARED, heap,
                            shmem_team_my_pe(SHMEM_TEAM_SHARED)) ==
                 (void *)heap,
             "shmem_team_ptr(shared, heap, me)");
    /* another PE's global is still reached through its window */
    if ((npes > 1) && XG_TEST_SAME_NODE((me + 1) % npes)) {
        long *theirs = shmem_ptr(&global_value, (me + 1) % npes);

        XG_CHECK(theirs != NULL && theirs != &global_value && *theirs == 42,
                 "shmem_ptr to the next PE's global");
    }
    shmem_free(heap);
    shmem_finalize();
    return 0;
}
