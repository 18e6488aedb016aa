/*
 * PMI negative cases: each makes one bad call on every process and checks
 * the PMI return code; the message xgas prints is checked by expect_run.sh.
 * Prints "case <name>: returned <code> as expected" and exits 0 when the
 * code is right, exits 1 otherwise.  "abort" ends the job through
 * PMI_Abort(7, ...) on the last rank while the others wait in PMI_Barrier.
 *
 *   pmi_bad_args <case>
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pmi.h>

#include "xg_test.h"

static char kvs[64];
static char big[4096];

static void join(void)
{
    int spawned;

    if (PMI_Init(&spawned) != PMI_SUCCESS) {
        fprintf(stderr, "PMI_Init failed\n");
        exit(1);
    }
    PMI_Get_rank(&xg_test_pe);
    PMI_KVS_Get_my_name(kvs, sizeof(kvs));
}

static int expect(const char *name, int got, int want)
{
    if (got != want) {
        fprintf(stderr, "case %s: returned %d, expected %d\n", name, got, want);
        return 1;
    }
    fprintf(stderr, "case %s: returned %d as expected\n", name, got);
    return 0;
}

int main(int argc, char **argv)
{
    const char *c = (argc > 1) ? argv[1] : "";
    char buf[32];
    int rc = 0, size = 0, i, ranks[1];

    if (strcmp(c, "before_init") == 0) {
        return expect(c, PMI_Get_rank(&i), PMI_ERR_INIT);
    }
    if (strcmp(c, "null_spawned") == 0) {
        return expect(c, PMI_Init(NULL), PMI_ERR_INVALID_ARG);
    }
    join();
    if (strcmp(c, "null_rank") == 0) {
        rc = expect(c, PMI_Get_rank(NULL), PMI_ERR_INVALID_ARG);
    } else if (strcmp(c, "null_size") == 0) {
        rc = expect(c, PMI_Get_size(NULL), PMI_ERR_INVALID_ARG);
    } else if (strcmp(c, "null_length") == 0) {
        rc = expect(c, PMI_KVS_Get_value_length_max(NULL), PMI_ERR_INVALID_ARG);
    } else if (strcmp(c, "after_finalize") == 0) {
        PMI_Finalize();
        rc = expect(c, PMI_Barrier(), PMI_ERR_INIT);
    } else if (strcmp(c, "null_kvsname") == 0) {
        rc = expect(c, PMI_KVS_Put(NULL, "k", "v"), PMI_ERR_INVALID_ARG);
    } else if (strcmp(c, "bad_kvsname") == 0) {
        rc = expect(c, PMI_KVS_Put("other", "k", "v"), PMI_ERR_INVALID_ARG);
    } else if (strcmp(c, "null_key") == 0) {
        rc = expect(c, PMI_KVS_Put(kvs, NULL, "v"), PMI_ERR_INVALID_KEY);
    } else if (strcmp(c, "empty_key") == 0) {
        rc = expect(c, PMI_KVS_Put(kvs, "", "v"), PMI_ERR_INVALID_KEY);
    } else if (strcmp(c, "key_too_long") == 0) {
        memset(big, 'k', 64);
        rc = expect(c, PMI_KVS_Put(kvs, big, "v"), PMI_ERR_INVALID_KEY_LENGTH);
    } else if (strcmp(c, "null_value") == 0) {
        rc = expect(c, PMI_KVS_Put(kvs, "k", NULL), PMI_ERR_INVALID_VAL);
    } else if (strcmp(c, "value_too_long") == 0) {
        memset(big, 'v', 1024);
        rc = expect(c, PMI_KVS_Put(kvs, "k", big), PMI_ERR_INVALID_VAL_LENGTH);
    } else if (strcmp(c, "get_key_too_long") == 0) {
        memset(big, 'k', 100);
        rc = expect(c, PMI_KVS_Get(kvs, big, buf, sizeof(buf)),
                    PMI_ERR_INVALID_KEY_LENGTH);
    } else if (strcmp(c, "get_null_value") == 0) {
        rc = expect(c, PMI_KVS_Get(kvs, "k", NULL, 16), PMI_ERR_INVALID_VAL);
    } else if (strcmp(c, "get_zero_length") == 0) {
        rc = expect(c, PMI_KVS_Get(kvs, "k", buf, 0), PMI_ERR_INVALID_LENGTH);
    } else if (strcmp(c, "get_small_buffer") == 0) {
        snprintf(buf, sizeof(buf), "from %d", xg_test_pe);
        PMI_KVS_Put(kvs, "greeting", "hello world");
        PMI_KVS_Commit(kvs);
        PMI_Barrier();
        rc = expect(c, PMI_KVS_Get(kvs, "greeting", buf, 4),
                    PMI_ERR_INVALID_LENGTH);
    } else if (strcmp(c, "get_unknown") == 0) {
        /* others put and commit other keys; the missing one fails at once
         * on every process, before and after the barrier */
        PMI_KVS_Put(kvs, "known", "1");
        PMI_KVS_Commit(kvs);
        rc = expect(c, PMI_KVS_Get(kvs, "unknown", buf, sizeof(buf)), PMI_FAIL);
        PMI_Barrier();
        rc |=
            expect(c, PMI_KVS_Get(kvs, "unknown", buf, sizeof(buf)), PMI_FAIL);
        rc |=
            expect(c, PMI_KVS_Get(kvs, "known", buf, sizeof(buf)), PMI_SUCCESS);
    } else if (strcmp(c, "name_too_short") == 0) {
        rc = expect(c, PMI_KVS_Get_my_name(buf, 4), PMI_ERR_INVALID_LENGTH);
    } else if (strcmp(c, "clique_short") == 0) {
        PMI_Get_size(&size);
        rc = expect(c, PMI_Get_clique_ranks(ranks, size - 1),
                    PMI_ERR_INVALID_LENGTH);
    } else if (strcmp(c, "kvs_full") == 0) {
        memset(big, 'v', 1023);
        for (i = 0; i < 1000; i++) {
            snprintf(buf, sizeof(buf), "full-%d", i);
            rc = PMI_KVS_Put(kvs, buf, big);
            if (rc != PMI_SUCCESS) {
                break;
            }
        }
        rc = expect(c, rc, PMI_ERR_NOMEM);
    } else if (strcmp(c, "spawn") == 0) {
        rc = expect(
            c,
            PMI_Spawn_multiple(0, NULL, NULL, NULL, NULL, NULL, 0, NULL, NULL),
            PMI_FAIL);
    } else if (strcmp(c, "abort") == 0) {
        PMI_Get_size(&size);
        if (xg_test_pe == size - 1) {
            PMI_Abort(7, "the test aborts on purpose");
        }
        PMI_Barrier(); /* never returns: the job ends */
        fprintf(stderr, "case abort: PMI_Barrier returned\n");
        rc = 1;
    } else {
        fprintf(stderr, "unknown case '%s'\n", c);
        rc = 2;
    }
    return rc;
}
