/*
 * Minimal helpers for xgas test programs.  A test program exits 0 when it
 * passes, 1 when a check fails (after printing which check, on which PE)
 * and 77 when it does not apply (CTest reports a skip).
 */
#ifndef XG_TEST_H
#define XG_TEST_H

#include <stdio.h>
#include <stdlib.h>

#define XG_TEST_PASS 0
#define XG_TEST_FAIL 1
#define XG_TEST_SKIP 77

/* In an OpenSHMEM test: 1 if PE @pe shares this PE's node (a job may span
 * nodes, XGAS_VIRTUAL_NODES): only then does shmem_ptr reach it. */
#define XG_TEST_SAME_NODE(pe) \
    (shmem_team_translate_pe(SHMEM_TEAM_WORLD, (pe), SHMEM_TEAM_SHARED) >= 0)

/* Set by the test to its PE number once known, for messages. */
static int xg_test_pe = -1;

#define XG_CHECK(cond, ...)                                                   \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "FAIL [pe %d] %s:%d: %s: ", xg_test_pe, __FILE__, \
                    __LINE__, #cond);                                         \
            fprintf(stderr, __VA_ARGS__);                                     \
            fprintf(stderr, "\n");                                            \
            fflush(stderr);                                                   \
            exit(XG_TEST_FAIL);                                               \
        }                                                                     \
    } while (0)

#endif
