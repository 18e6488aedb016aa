/*
 * Mistakes that used to pass silently, crash or hang, one per run:
 * `bad_checks CASE`.  The PEs disagree on a symmetric heap call (size,
 * order, routine, alignment, object), use a destroyed context or a garbage
 * team handle, pass a NULL local buffer, clear a lock they do not hold or
 * pass an uninitialized pSync.  The library must end the job with a
 * message naming the routine and the values; expect_failure.sh checks the
 * exit status and the message.  If the program gets past the mistake it
 * says so and exits 0, which expect_failure.sh reports as a failure.
 */
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long g_dest[8];
static long g_src[8];
static long g_lock;
static long g_psync[SHMEM_SYNC_SIZE];

/* The last PE does something else than the others. */
static int odd_one(void)
{
    return shmem_my_pe() == shmem_n_pes() - 1;
}

static int heap_case(const char *name)
{
    void *a, *b;

    if (strcmp(name, "malloc_size") == 0) {
        a         = shmem_malloc(odd_one() ? 2048 : 1024);
        g_dest[0] = (long)(intptr_t)a;
        /* a put here would land inside another object */
        shmem_long_p((long *)a, 1, 0);
    } else if (strcmp(name, "malloc_order") == 0) {
        /* A (100 bytes) then B (200) on most PEs, B then A on the last */
        a         = shmem_malloc(odd_one() ? 200 : 100);
        b         = shmem_malloc(odd_one() ? 100 : 200);
        g_dest[0] = (long)(intptr_t)a + (long)(intptr_t)b;
    } else if (strcmp(name, "free_order") == 0) {
        a = shmem_malloc(64);
        b = shmem_malloc(64);
        shmem_free(odd_one() ? b : a);
        shmem_free(odd_one() ? a : b);
    } else if (strcmp(name, "free_vs_malloc") == 0) {
        a = shmem_malloc(64);
        if (odd_one()) {
            b         = shmem_malloc(64);
            g_dest[0] = (long)(intptr_t)b;
        } else {
            shmem_free(a);
        }
    } else if (strcmp(name, "malloc_vs_barrier") == 0) {
        if (odd_one()) {
            shmem_barrier_all();
        } else {
            a         = shmem_malloc(64);
            g_dest[0] = (long)(intptr_t)a;
        }
    } else if (strcmp(name, "calloc_size") == 0) {
        a         = shmem_calloc(odd_one() ? 8 : 4, sizeof(long));
        g_dest[0] = (long)(intptr_t)a;
    } else if (strcmp(name, "align_alignment") == 0) {
        a         = shmem_align(odd_one() ? 128 : 64, 256);
        g_dest[0] = (long)(intptr_t)a;
    } else if (strcmp(name, "hints_size") == 0) {
        a = shmem_malloc_with_hints(odd_one() ? 96 : 64,
                                    SHMEM_MALLOC_ATOMICS_REMOTE);
        g_dest[0] = (long)(intptr_t)a;
    } else if (strcmp(name, "realloc_size") == 0) {
        a         = shmem_malloc(64);
        b         = shmem_realloc(a, odd_one() ? 4096 : 128);
        g_dest[0] = (long)(intptr_t)b;
    } else if (strcmp(name, "realloc_object") == 0) {
        a         = shmem_malloc(64);
        b         = shmem_malloc(64);
        a         = shmem_realloc(odd_one() ? b : a, 128);
        g_dest[0] = (long)(intptr_t)a;
    } else {
        return -1;
    }
    return 0;
}

static int handle_case(const char *name)
{
    shmem_ctx_t ctx;
    shmem_team_t garbage;
    long junk[16];
    int peer = (shmem_my_pe() + 1) % shmem_n_pes();

    memset(junk, 0x5a, sizeof(junk));
    if (strcmp(name, "ctx_destroyed_p") == 0) {
        if (shmem_ctx_create(0, &ctx) != 0) {
            return 2;
        }
        shmem_ctx_destroy(ctx);
        shmem_ctx_long_p(ctx, g_dest, 1, peer);
    } else if (strcmp(name, "ctx_destroyed_quiet") == 0) {
        if (shmem_ctx_create(0, &ctx) != 0) {
            return 2;
        }
        shmem_ctx_destroy(ctx);
        shmem_ctx_quiet(ctx);
    } else if (strcmp(name, "ctx_destroy_twice") == 0) {
        if (shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) != 0) {
            return 2;
        }
        shmem_ctx_destroy(ctx);
        shmem_ctx_destroy(ctx);
    } else if (strcmp(name, "team_garbage_query") == 0) {
        garbage = (shmem_team_t)(void *)junk;
        printf("n_pes %d\n", shmem_team_n_pes(garbage));
    } else if (strcmp(name, "team_wild_sync") == 0) {
        garbage = (shmem_team_t)(uintptr_t)0x1000;
        shmem_team_sync(garbage);
    } else if (strcmp(name, "team_garbage_ctx") == 0) {
        garbage = (shmem_team_t)(void *)junk;
        shmem_team_create_ctx(garbage, 0, &ctx);
    } else if (strcmp(name, "put_null_source") == 0) {
        shmem_long_put(g_dest, NULL, 4, peer);
    } else if (strcmp(name, "get_null_dest") == 0) {
        shmem_long_get(NULL, g_src, 4, peer);
    } else if (strcmp(name, "putmem_nbi_null_source") == 0) {
        shmem_putmem_nbi(g_dest, NULL, 16, peer);
    } else if (strcmp(name, "iput_null_source") == 0) {
        shmem_long_iput(g_dest, NULL, 1, 2, 3, peer);
    } else if (strcmp(name, "iget_null_dest") == 0) {
        shmem_long_iget(NULL, g_src, 2, 1, 3, peer);
    } else if (strcmp(name, "bcast_null_dest") == 0) {
        shmem_long_broadcast(SHMEM_TEAM_WORLD, NULL, g_src, 4, 0);
    } else if (strcmp(name, "reduce_null_source") == 0) {
        shmem_long_sum_reduce(SHMEM_TEAM_WORLD, g_dest, NULL, 4);
    } else if (strcmp(name, "clear_lock_not_mine") == 0) {
        if (shmem_my_pe() == 0) {
            shmem_set_lock(&g_lock);
        }
        shmem_barrier_all();
        if (shmem_my_pe() == 1) {
            shmem_clear_lock(&g_lock); /* PE 0 holds it */
        }
        shmem_barrier_all();
    } else if (strcmp(name, "psync_garbage_barrier") == 0) {
        memset(g_psync, 0x55, sizeof(g_psync));
        shmem_barrier_all();
        shmem_barrier(0, 0, shmem_n_pes(), g_psync);
    } else if (strcmp(name, "psync_negative_bcast") == 0) {
        int i;

        for (i = 0; i < SHMEM_SYNC_SIZE; i++) {
            g_psync[i] = -1;
        }
        shmem_barrier_all();
        shmem_broadcast64(g_dest, g_src, 4, 0, 0, 0, shmem_n_pes(), g_psync);
    } else {
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    int rc;

    if (argc != 2) {
        fprintf(stderr, "usage: bad_checks CASE\n");
        return 2;
    }
    shmem_init();
    rc = heap_case(argv[1]);
    if (rc < 0) {
        rc = handle_case(argv[1]);
    }
    if (rc < 0) {
        fprintf(stderr, "bad_checks: unknown case %s\n", argv[1]);
        return 2;
    }
    if (rc > 0) {
        fprintf(stderr, "bad_checks: setup failed in %s\n", argv[1]);
        return 2;
    }
    shmem_barrier_all();
    printf("bad_checks %s: the mistake was not detected\n", argv[1]);
    shmem_finalize();
    return 0;
}
