/*
 * PMI-1 under xgasrun (1, 2, 4 processes) and alone (a job of one): the
 * job's shape, the key/value space through several barrier rounds (values
 * put before a barrier are read after it by every process, a key put again
 * reads as its last value, the caller's own values at once), lengths, a
 * missing key (PMI_FAIL, at once) and initialize/finalize.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmi_test.h"

#define ROUNDS 5

int main(int argc, char **argv)
{
    PMI_BOOL initialized = PMI_TRUE;
    int spawned = -1, rank = -1, size = -1, usize, appnum = -1, csize;
    int name_max, key_max, val_max, round, i, expect_np = 0;
    int *ranks;
    char *name, *key, *val, *want;

    if (argc > 1) {
        expect_np = atoi(argv[1]); /* the singleton run says 1 */
    }
    PMI_OK(PMI_Initialized(&initialized));
    XG_CHECK(initialized == PMI_FALSE, "initialized before PMI_Init");
    PMI_OK(PMI_Init(&spawned));
    XG_CHECK(spawned == PMI_FALSE, "spawned %d", spawned);
    PMI_OK(PMI_Initialized(&initialized));
    XG_CHECK(initialized == PMI_TRUE, "not initialized after PMI_Init");

    PMI_OK(PMI_Get_rank(&rank));
    PMI_OK(PMI_Get_size(&size));
    xg_test_pe = rank;
    XG_CHECK((size >= 1) && (rank >= 0) && (rank < size), "rank %d of %d", rank,
             size);
    if (getenv("XGAS_NPES") != NULL) {
        XG_CHECK(size == atoi(getenv("XGAS_NPES")), "size %d", size);
        XG_CHECK(rank == atoi(getenv("XGAS_RANK")), "rank %d", rank);
    }
    if (expect_np > 0) {
        XG_CHECK(size == expect_np, "size %d, expected %d", size, expect_np);
    }
    PMI_OK(PMI_Get_universe_size(&usize));
    XG_CHECK(usize == size, "universe size %d", usize);
    PMI_OK(PMI_Get_appnum(&appnum));
    XG_CHECK(appnum == 0, "appnum %d", appnum);
    PMI_OK(PMI_Get_clique_size(&csize));
    XG_CHECK(csize == size, "clique size %d", csize);
    ranks = calloc((size_t)size, sizeof(*ranks));
    PMI_OK(PMI_Get_clique_ranks(ranks, size));
    for (i = 0; i < size; i++) {
        XG_CHECK(ranks[i] == i, "clique rank %d is %d", i, ranks[i]);
    }

    PMI_OK(PMI_KVS_Get_name_length_max(&name_max));
    PMI_OK(PMI_KVS_Get_key_length_max(&key_max));
    PMI_OK(PMI_KVS_Get_value_length_max(&val_max));
    XG_CHECK((name_max >= 16) && (key_max >= 32) && (val_max >= 256),
             "maxima %d %d %d", name_max, key_max, val_max);
    name = malloc((size_t)name_max);
    key  = malloc((size_t)key_max);
    val  = malloc((size_t)val_max);
    want = malloc((size_t)val_max);
    PMI_OK(PMI_KVS_Get_my_name(name, name_max));
    XG_CHECK(strlen(name) > 0, "empty kvs name");

    /* every process's name is the same: check through the space itself */
    snprintf(key, (size_t)key_max, "name-%d", rank);
    PMI_OK(PMI_KVS_Put(name, key, name));
    /* the caller's own value is readable at once */
    PMI_OK(PMI_KVS_Get(name, key, val, val_max));
    XG_CHECK(strcmp(val, name) == 0, "own value '%s'", val);
    PMI_OK(PMI_KVS_Commit(name));
    PMI_OK(PMI_Barrier());
    for (i = 0; i < size; i++) {
        snprintf(key, (size_t)key_max, "name-%d", i);
        PMI_OK(PMI_KVS_Get(name, key, val, val_max));
        XG_CHECK(strcmp(val, name) == 0, "rank %d's kvs name '%s', mine '%s'",
                 i, val, name);
    }

    for (round = 0; round < ROUNDS; round++) {
        /* a key of each round, and one key rewritten every round */
        snprintf(key, (size_t)key_max, "r%d-from-%d", round, rank);
        snprintf(val, (size_t)val_max, "value %d of rank %d", round, rank);
        PMI_OK(PMI_KVS_Put(name, key, val));
        snprintf(key, (size_t)key_max, "latest-%d", rank);
        snprintf(val, (size_t)val_max, "round %d", round);
        PMI_OK(PMI_KVS_Put(name, key, val));
        PMI_OK(PMI_KVS_Commit(name));
        PMI_OK(PMI_Barrier());
        for (i = 0; i < size; i++) {
            int peer = (rank + i) % size;

            snprintf(key, (size_t)key_max, "r%d-from-%d", round, peer);
            snprintf(want, (size_t)val_max, "value %d of rank %d", round, peer);
            PMI_OK(PMI_KVS_Get(name, key, val, val_max));
            XG_CHECK(strcmp(val, want) == 0, "%s is '%s', want '%s'", key, val,
                     want);
            snprintf(key, (size_t)key_max, "latest-%d", peer);
            snprintf(want, (size_t)val_max, "round %d", round);
            PMI_OK(PMI_KVS_Get(name, key, val, val_max));
            XG_CHECK(strcmp(val, want) == 0, "%s is '%s', want '%s'", key, val,
                     want);
        }
        /* nobody puts the next round's keys before this barrier */
        PMI_OK(PMI_Barrier());
    }

    /* a value of the longest length round-trips */
    memset(want, 'x', (size_t)val_max - 1);
    want[val_max - 1] = '\0';
    snprintf(key, (size_t)key_max, "long-%d", rank);
    PMI_OK(PMI_KVS_Put(name, key, want));
    PMI_OK(PMI_KVS_Commit(name));
    PMI_OK(PMI_Barrier());
    snprintf(key, (size_t)key_max, "long-%d", (rank + 1) % size);
    PMI_OK(PMI_KVS_Get(name, key, val, val_max));
    XG_CHECK(strcmp(val, want) == 0, "long value differs");

    /* a key nobody put: PMI_FAIL at once, every process */
    XG_CHECK(PMI_KVS_Get(name, "never-put", val, val_max) == PMI_FAIL,
             "a missing key was found");

    PMI_OK(PMI_Barrier());
    PMI_OK(PMI_Finalize());
    PMI_OK(PMI_Initialized(&initialized));
    XG_CHECK(initialized == PMI_FALSE, "initialized after PMI_Finalize");
    free(ranks);
    free(name);
    free(key);
    free(val);
    free(want);
    if (rank == 0) {
        printf("pmi: %d processes passed\n", size);
    }
    return 0;
}
