/*
 * Invalid uses of teams and collectives, one per case (argv[1]), run on
 * 2 PEs; each must end the job with a message naming the routine and the
 * bad value (checked by tests/tools/expect_failure.sh).  Some cases make
 * the two PEs disagree -- a different count, root, routine or operation --
 * which the collective engine detects by comparing the descriptors the
 * members publish.
 */
#include <shmem.h>
#include <stdio.h>
#include <string.h>

static long src[64], dst[64], psync[SHMEM_SYNC_SIZE];
static int isrc[8], idst[8];

static shmem_team_t evens(void)
{
    shmem_team_t t;

    shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 2, (shmem_n_pes() + 1) / 2,
                             NULL, 0, &t);
    return t;
}

static int run(const char *name)
{
    int me = shmem_my_pe(), npes = shmem_n_pes();
    long stack_buf[4];
    shmem_team_config_t config = {0};
    shmem_team_t t;

    if (strcmp(name, "sync_invalid") == 0) {
        shmem_team_sync(SHMEM_TEAM_INVALID);
    } else if (strcmp(name, "bcast_invalid") == 0) {
        shmem_long_broadcast(SHMEM_TEAM_INVALID, dst, src, 4, 0);
    } else if (strcmp(name, "reduce_nonmember") == 0) {
        /* the odd PE got SHMEM_TEAM_INVALID from the split */
        t = evens();
        shmem_long_sum_reduce(t, dst, src, 4);
    } else if (strcmp(name, "reduce_destroyed") == 0) {
        t = evens();
        if (t != SHMEM_TEAM_INVALID) {
            shmem_team_destroy(t);
            shmem_long_sum_reduce(t, dst, src, 4);
        }
        shmem_barrier_all(); /* PE 1 waits here for the failing PE 0 */
    } else if (strcmp(name, "bcast_root_range") == 0) {
        shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 4, npes);
    } else if (strcmp(name, "bcast_root_negative") == 0) {
        shmem_broadcastmem(SHMEM_TEAM_WORLD, dst, src, 8, -1);
    } else if (strcmp(name, "bcast_stack") == 0) {
        shmem_long_broadcast(SHMEM_TEAM_WORLD, stack_buf, src, 4, 0);
    } else if (strcmp(name, "fcollect_past_end") == 0) {
        /* 64 longs from each of 2 PEs do not fit in the last heap object,
         * of 64 */
        long *heap_dst = shmem_malloc(64 * sizeof(long));

        shmem_long_fcollect(SHMEM_TEAM_WORLD, heap_dst, src, 64);
    } else if (strcmp(name, "collect_past_end") == 0) {
        /* each PE's 40 fits, the sum of 80 does not */
        long *heap_dst = shmem_malloc(64 * sizeof(long));

        shmem_long_collect(SHMEM_TEAM_WORLD, heap_dst, src, 40);
    } else if (strcmp(name, "reduce_overlap") == 0) {
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, src + 1, src, 8);
    } else if (strcmp(name, "alltoalls_stride0") == 0) {
        shmem_long_alltoalls(SHMEM_TEAM_WORLD, dst, src, 0, 1, 2);
    } else if (strcmp(name, "destroy_world") == 0) {
        shmem_team_destroy(SHMEM_TEAM_WORLD);
    } else if (strcmp(name, "split_null_handle") == 0) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, NULL, 0, NULL);
    } else if (strcmp(name, "split_bad_mask") == 0) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &config, 0x100,
                                 &t);
    } else if (strcmp(name, "split_negative_contexts") == 0) {
        config.num_contexts = -2;
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, npes, &config,
                                 SHMEM_TEAM_NUM_CONTEXTS, &t);
    } else if (strcmp(name, "get_config_null") == 0) {
        shmem_team_get_config(SHMEM_TEAM_WORLD, SHMEM_TEAM_NUM_CONTEXTS, NULL);
    } else if (strcmp(name, "mismatch_nelems") == 0) {
        shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, (me == 0) ? 8 : 16, 0);
    } else if (strcmp(name, "mismatch_root") == 0) {
        shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 8, me);
    } else if (strcmp(name, "mismatch_kind") == 0) {
        if (me == 0) {
            shmem_team_sync(SHMEM_TEAM_WORLD);
        } else {
            shmem_long_broadcast(SHMEM_TEAM_WORLD, dst, src, 8, 0);
        }
    } else if (strcmp(name, "mismatch_op") == 0) {
        if (me == 0) {
            shmem_int_sum_reduce(SHMEM_TEAM_WORLD, idst, isrc, 4);
        } else {
            shmem_int_max_reduce(SHMEM_TEAM_WORLD, idst, isrc, 4);
        }
    } else if (strcmp(name, "mismatch_reduce_count") == 0) {
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, dst, src, (me == 0) ? 3 : 5);
    } else if (strcmp(name, "mismatch_split") == 0) {
        shmem_team_split_strided(SHMEM_TEAM_WORLD, 0, 1, (me == 0) ? 1 : 2,
                                 NULL, 0, &t);
    } else if (strcmp(name, "aset_not_member") == 0) {
        /* the set {0}: PE 1 is not in it */
        shmem_barrier(0, 0, 1, psync);
        shmem_barrier_all(); /* PE 0 waits here for the failing PE 1 */
    } else if (strcmp(name, "aset_range") == 0) {
        shmem_long_sum_to_all(dst, src, 4, 0, 1, npes, src, psync);
    } else if (strcmp(name, "aset_root_range") == 0) {
        shmem_broadcast64(dst, src, 4, 5, 0, 0, npes, psync);
    } else if (strcmp(name, "aset_null_psync") == 0) {
        shmem_fcollect64(dst, src, 4, 0, 0, npes, NULL);
    } else if (strcmp(name, "aset_negative_nreduce") == 0) {
        shmem_int_max_to_all(idst, isrc, -1, 0, 0, npes, isrc, psync);
    } else if (strcmp(name, "before_init_team") == 0) {
        return -1; /* handled in main */
    } else {
        fprintf(stderr, "bad_coll: unknown case %s\n", name);
        return 2;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bad_coll CASE\n");
        return 2;
    }
    if (strcmp(argv[1], "before_init_team") == 0) {
        shmem_team_sync(SHMEM_TEAM_WORLD);
        return 0;
    }
    shmem_init();
    if (run(argv[1]) == 2) {
        return 2;
    }
    shmem_finalize();
    return 0; /* the call was accepted: expect_failure.sh reports it */
}
