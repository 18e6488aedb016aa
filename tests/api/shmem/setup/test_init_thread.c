/*
 * shmem_init_thread with the thread level named on the command line
 * (single, funneled, serialized, multiple): xgas supports every level, so
 * it must return 0 with provided == requested, and shmem_query_thread must
 * report the same level until shmem_finalize.
 */
#include <shmem.h>
#include <string.h>

#include "xg_test.h"

static const char *const level_names[] = {"single", "funneled", "serialized",
                                          "multiple"};
static const int levels[] = {SHMEM_THREAD_SINGLE, SHMEM_THREAD_FUNNELED,
                             SHMEM_THREAD_SERIALIZED, SHMEM_THREAD_MULTIPLE};

int main(int argc, char **argv)
{
    int i, requested = -1, provided = -1, queried = -1;

    for (i = 0; (argc == 2) && (i < 4); i++) {
        if (strcmp(argv[1], level_names[i]) == 0) {
            requested = levels[i];
        }
    }
    XG_CHECK(requested >= 0, "usage: %s single|funneled|serialized|multiple",
             argv[0]);
    XG_CHECK(shmem_init_thread(requested, &provided) == 0,
             "init_thread(%s) failed", argv[1]);
    xg_test_pe = shmem_my_pe();
    XG_CHECK(provided == requested, "requested %d, provided %d", requested,
             provided);
    shmem_query_thread(&queried);
    XG_CHECK(queried == requested, "query_thread gave %d, expected %d", queried,
             requested);
    shmem_barrier_all();
    shmem_query_thread(&queried);
    XG_CHECK(queried == requested, "query_thread changed to %d", queried);
    shmem_finalize();
    return XG_TEST_PASS;
}
