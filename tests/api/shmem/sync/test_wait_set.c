/*
 * The array forms of point-to-point synchronization, for every type:
 * wait_until_all/_any/_some, test_all/_any/_some and their _vector forms,
 * with and without a status mask.
 *
 * Local part: the PE sets its own array and checks every return value
 * exactly -- SIZE_MAX and 0 for an empty or unsatisfied set, the exact
 * index or index set otherwise, masked elements ignored, and fairness of
 * _any (a series of calls returns every satisfying element).
 *
 * Ring part: each PE writes the array of the next one while that PE
 * waits (PE 0 writes first, the others wait first).  The writer first sets
 * a masked element and only then the one the waiter may return, so the
 * returned index is exact; _some is called until every written index was
 * reported, masking the ones already seen, so the outcome does not depend
 * on how the writes interleave with the scans.
 */
#include <shmem.h>
#include <string.h>

#include "xg_test.h"

#define N 8

static int me, npes, next;

/* Bit mask of indices[0..count), checking each is unique and below N. */
static unsigned index_set(const size_t *indices, size_t count)
{
    unsigned set = 0;
    size_t i;

    XG_CHECK(count <= N, "%zu indices returned for %d elements", count, N);
    for (i = 0; i < count; i++) {
        XG_CHECK(indices[i] < N, "index %zu out of range", indices[i]);
        XG_CHECK((set & (1u << indices[i])) == 0, "index %zu twice",
                 indices[i]);
        set |= 1u << indices[i];
    }
    return set;
}

/* Waits in the ring: PE 0 runs @write first, the others @wait first. */
static void ring(void (*write)(int pe), void (*wait)(void))
{
    if (me == 0) {
        write(next);
        wait();
    } else {
        wait();
        write(next);
    }
    shmem_barrier_all();
}

#define DEFINE_SET_TEST(TYPE, TYPENAME)                                        \
    static TYPE ivars_##TYPENAME[N];                                           \
                                                                               \
    static void local_##TYPENAME(void)                                         \
    {                                                                          \
        TYPE *iv = ivars_##TYPENAME, values[N];                                \
        int status[N], all_masked[N], i;                                       \
        size_t indices[N], count, idx;                                         \
        unsigned seen;                                                         \
                                                                               \
        memset(iv, 0, sizeof(ivars_##TYPENAME));                               \
        memset(status, 0, sizeof(status));                                     \
        for (i = 0; i < N; i++) {                                              \
            all_masked[i] = 1;                                                 \
        }                                                                      \
        /* nothing satisfies "== 1" */                                         \
        XG_CHECK(shmem_##TYPENAME##_test_all(iv, N, NULL, SHMEM_CMP_EQ, 0) ==  \
                     1,                                                        \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_test_all(iv, N, NULL, SHMEM_CMP_EQ, 1) ==  \
                     0,                                                        \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_test_any(iv, N, NULL, SHMEM_CMP_EQ, 1) ==  \
                     SIZE_MAX,                                                 \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_test_some(iv, N, indices, NULL,            \
                                              SHMEM_CMP_EQ, 1) == 0,           \
                 #TYPENAME);                                                   \
        /* one element satisfies it */                                         \
        iv[3] = 1;                                                             \
        XG_CHECK(shmem_##TYPENAME##_test_any(iv, N, NULL, SHMEM_CMP_EQ, 1) ==  \
                     3,                                                        \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_wait_until_any(iv, N, NULL, SHMEM_CMP_EQ,  \
                                                   1) == 3,                    \
                 #TYPENAME);                                                   \
        count = shmem_##TYPENAME##_test_some(iv, N, indices, NULL,             \
                                             SHMEM_CMP_EQ, 1);                 \
        XG_CHECK(index_set(indices, count) == 1u << 3, #TYPENAME);             \
        XG_CHECK(shmem_##TYPENAME##_test_all(iv, N, NULL, SHMEM_CMP_EQ, 0) ==  \
                     0,                                                        \
                 #TYPENAME);                                                   \
        /* ... and is masked */                                                \
        status[3] = 1;                                                         \
        XG_CHECK(shmem_##TYPENAME##_test_any(iv, N, status, SHMEM_CMP_EQ,      \
                                             1) == SIZE_MAX,                   \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_test_some(iv, N, indices, status,          \
                                              SHMEM_CMP_EQ, 1) == 0,           \
                 #TYPENAME);                                                   \
        XG_CHECK(                                                              \
            shmem_##TYPENAME##_test_all(iv, N, status, SHMEM_CMP_EQ, 0) == 1,  \
            #TYPENAME);                                                        \
        shmem_##TYPENAME##_wait_until_all(iv, N, status, SHMEM_CMP_EQ, 0);     \
        /* four satisfy it: _some reports them all, _any each in turn */       \
        iv[2] = iv[5] = iv[6] = 1;                                             \
        count = shmem_##TYPENAME##_test_some(iv, N, indices, NULL,             \
                                             SHMEM_CMP_EQ, 1);                 \
        XG_CHECK(index_set(indices, count) == 0x6cu, #TYPENAME);               \
        count = shmem_##TYPENAME##_wait_until_some(iv, N, indices, status,     \
                                                   SHMEM_CMP_EQ, 1);           \
        XG_CHECK(index_set(indices, count) == 0x64u, #TYPENAME);               \
        seen = 0;                                                              \
        for (i = 0; i < 4; i++) {                                              \
            idx = shmem_##TYPENAME##_test_any(iv, N, NULL, SHMEM_CMP_EQ, 1);   \
            XG_CHECK((idx < N) && (iv[idx] == 1), #TYPENAME);                  \
            seen |= 1u << idx;                                                 \
        }                                                                      \
        XG_CHECK(seen == 0x6cu, #TYPENAME " test_any starves: %#x", seen);     \
        seen = 0;                                                              \
        for (i = 0; i < 3; i++) {                                              \
            idx = shmem_##TYPENAME##_wait_until_any(iv, N, status,             \
                                                    SHMEM_CMP_NE, 0);          \
            XG_CHECK((idx < N) && (idx != 3) && (iv[idx] == 1), #TYPENAME);    \
            seen |= 1u << idx;                                                 \
        }                                                                      \
        XG_CHECK(seen == 0x64u, #TYPENAME " wait_until_any starves: %#x",      \
                 seen);                                                        \
        /* empty sets: every element masked, or no elements */                 \
        XG_CHECK(shmem_##TYPENAME##_test_any(iv, N, all_masked, SHMEM_CMP_EQ,  \
                                             1) == SIZE_MAX,                   \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_wait_until_any(                            \
                     iv, N, all_masked, SHMEM_CMP_EQ, 7) == SIZE_MAX,          \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_wait_until_some(                           \
                     iv, N, indices, all_masked, SHMEM_CMP_EQ, 7) == 0,        \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_test_some(iv, N, indices, all_masked,      \
                                              SHMEM_CMP_EQ, 1) == 0,           \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_test_all(iv, N, all_masked, SHMEM_CMP_EQ,  \
                                             7) == 1,                          \
                 #TYPENAME);                                                   \
        shmem_##TYPENAME##_wait_until_all(iv, N, all_masked, SHMEM_CMP_EQ, 7); \
        XG_CHECK(shmem_##TYPENAME##_wait_until_any(iv, 0, NULL, SHMEM_CMP_EQ,  \
                                                   7) == SIZE_MAX,             \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_wait_until_some(iv, 0, indices, NULL,      \
                                                    SHMEM_CMP_EQ, 7) == 0,     \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_test_all(iv, 0, NULL, SHMEM_CMP_EQ, 7) ==  \
                     1,                                                        \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_test_any(iv, 0, NULL, SHMEM_CMP_EQ, 7) ==  \
                     SIZE_MAX,                                                 \
                 #TYPENAME);                                                   \
        shmem_##TYPENAME##_wait_until_all(iv, 0, NULL, SHMEM_CMP_EQ, 7);       \
        /* vector forms: element i compared with values[i] = i; the even  \
         * elements equal theirs, the odd ones are one more */    \
        for (i = 0; i < N; i++) {                                              \
            values[i] = (TYPE)i;                                               \
            iv[i]     = (TYPE)(i + (i & 1));                                   \
            status[i] = i & 1;                                                 \
        }                                                                      \
        XG_CHECK(shmem_##TYPENAME##_test_all_vector(iv, N, NULL, SHMEM_CMP_EQ, \
                                                    values) == 0,              \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_test_all_vector(                           \
                     iv, N, status, SHMEM_CMP_EQ, values) == 1,                \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_test_all_vector(iv, N, NULL, SHMEM_CMP_GE, \
                                                    values) == 1,              \
                 #TYPENAME);                                                   \
        shmem_##TYPENAME##_wait_until_all_vector(iv, N, status, SHMEM_CMP_LE,  \
                                                 values);                      \
        idx = shmem_##TYPENAME##_test_any_vector(iv, N, NULL, SHMEM_CMP_GT,    \
                                                 values);                      \
        XG_CHECK((idx < N) && ((idx & 1) == 1), #TYPENAME);                    \
        XG_CHECK(shmem_##TYPENAME##_test_any_vector(iv, N, NULL, SHMEM_CMP_LT, \
                                                    values) == SIZE_MAX,       \
                 #TYPENAME);                                                   \
        idx = shmem_##TYPENAME##_wait_until_any_vector(iv, N, NULL,            \
                                                       SHMEM_CMP_EQ, values);  \
        XG_CHECK((idx < N) && ((idx & 1) == 0), #TYPENAME);                    \
        count = shmem_##TYPENAME##_test_some_vector(iv, N, indices, NULL,      \
                                                    SHMEM_CMP_NE, values);     \
        XG_CHECK(index_set(indices, count) == 0xaau, #TYPENAME);               \
        count = shmem_##TYPENAME##_test_some_vector(iv, N, indices, status,    \
                                                    SHMEM_CMP_NE, values);     \
        XG_CHECK(count == 0, #TYPENAME);                                       \
        count = shmem_##TYPENAME##_wait_until_some_vector(                     \
            iv, N, indices, NULL, SHMEM_CMP_EQ, values);                       \
        XG_CHECK(index_set(indices, count) == 0x55u, #TYPENAME);               \
        memset(iv, 0, sizeof(ivars_##TYPENAME));                               \
    }                                                                          \
                                                                               \
    /* any: element 1 is masked; the writer sets it, then element k */         \
    static void any_write_##TYPENAME(int pe)                                   \
    {                                                                          \
        shmem_##TYPENAME##_p(&ivars_##TYPENAME[1], 1, pe);                     \
        shmem_fence();                                                         \
        shmem_##TYPENAME##_p(&ivars_##TYPENAME[2 + pe % 6], 1, pe);            \
    }                                                                          \
                                                                               \
    static void any_wait_##TYPENAME(void)                                      \
    {                                                                          \
        int status[N] = {0, 1};                                                \
        size_t idx;                                                            \
                                                                               \
        idx = shmem_##TYPENAME##_wait_until_any(ivars_##TYPENAME, N, status,   \
                                                SHMEM_CMP_EQ, 1);              \
        XG_CHECK(idx == (size_t)(2 + me % 6), #TYPENAME " any gave %zu", idx); \
        XG_CHECK(shmem_##TYPENAME##_test_any(ivars_##TYPENAME, N, status,      \
                                             SHMEM_CMP_EQ, 1) == idx,          \
                 #TYPENAME);                                                   \
    }                                                                          \
                                                                               \
    /* some: three elements, reported over one or more calls */                \
    static void some_write_##TYPENAME(int pe)                                  \
    {                                                                          \
        shmem_##TYPENAME##_p(&ivars_##TYPENAME[N - 1], 1, pe);                 \
        shmem_##TYPENAME##_p(&ivars_##TYPENAME[0], 1, pe);                     \
        shmem_##TYPENAME##_p(&ivars_##TYPENAME[N / 2], 1, pe);                 \
    }                                                                          \
                                                                               \
    static void some_wait_##TYPENAME(void)                                     \
    {                                                                          \
        int status[N] = {0};                                                   \
        size_t indices[N], count, i;                                           \
        unsigned seen = 0, got;                                                \
                                                                               \
        while (seen != (1u | 1u << (N / 2) | 1u << (N - 1))) {                 \
            count = shmem_##TYPENAME##_wait_until_some(                        \
                ivars_##TYPENAME, N, indices, status, SHMEM_CMP_EQ, 1);        \
            XG_CHECK(count >= 1, #TYPENAME " some returned 0");                \
            got = index_set(indices, count);                                   \
            XG_CHECK((got & seen) == 0, #TYPENAME " masked index again");      \
            seen |= got;                                                       \
            for (i = 0; i < count; i++) {                                      \
                status[indices[i]] = 1;                                        \
            }                                                                  \
        }                                                                      \
    }                                                                          \
                                                                               \
    /* all: every element but the masked element 0, in reverse order */        \
    static void all_write_##TYPENAME(int pe)                                   \
    {                                                                          \
        int i;                                                                 \
                                                                               \
        for (i = N - 1; i >= 1; i--) {                                         \
            shmem_##TYPENAME##_p(&ivars_##TYPENAME[i], (TYPE)(i + 1), pe);     \
        }                                                                      \
    }                                                                          \
                                                                               \
    static void all_wait_##TYPENAME(void)                                      \
    {                                                                          \
        int status[N] = {1}, i;                                                \
                                                                               \
        shmem_##TYPENAME##_wait_until_all(ivars_##TYPENAME, N, status,         \
                                          SHMEM_CMP_NE, 0);                    \
        XG_CHECK(ivars_##TYPENAME[0] == 0, #TYPENAME);                         \
        for (i = 1; i < N; i++) {                                              \
            XG_CHECK(ivars_##TYPENAME[i] == (TYPE)(i + 1), #TYPENAME);         \
        }                                                                      \
    }                                                                          \
                                                                               \
    /* vectors: element i is waited on until it equals i + 1; for _any  \
     * only elements 0 (never written) and N - 1 (written first) count */      \
    static void vector_wait_##TYPENAME(void)                                   \
    {                                                                          \
        TYPE values[N];                                                        \
        int status[N], i;                                                      \
                                                                               \
        for (i = 0; i < N; i++) {                                              \
            values[i] = (TYPE)(i + 1);                                         \
            status[i] = (i != 0) && (i != N - 1);                              \
        }                                                                      \
        XG_CHECK(shmem_##TYPENAME##_test_all_vector(                           \
                     ivars_##TYPENAME, N, NULL, SHMEM_CMP_EQ, values) == 0,    \
                 #TYPENAME);                                                   \
        XG_CHECK(shmem_##TYPENAME##_wait_until_any_vector(                     \
                     ivars_##TYPENAME, N, status, SHMEM_CMP_EQ, values) ==     \
                     N - 1,                                                    \
                 #TYPENAME);                                                   \
        values[0] = 0;                                                         \
        shmem_##TYPENAME##_wait_until_all_vector(ivars_##TYPENAME, N, NULL,    \
                                                 SHMEM_CMP_EQ, values);        \
        XG_CHECK(shmem_##TYPENAME##_wait_until_some_vector(                    \
                     ivars_##TYPENAME, N, (size_t[N]){0}, NULL, SHMEM_CMP_EQ,  \
                     values) == N,                                             \
                 #TYPENAME);                                                   \
    }                                                                          \
                                                                               \
    static void ring_##TYPENAME(void)                                          \
    {                                                                          \
        memset(ivars_##TYPENAME, 0, sizeof(ivars_##TYPENAME));                 \
        shmem_barrier_all();                                                   \
        ring(any_write_##TYPENAME, any_wait_##TYPENAME);                       \
        memset(ivars_##TYPENAME, 0, sizeof(ivars_##TYPENAME));                 \
        shmem_barrier_all();                                                   \
        ring(some_write_##TYPENAME, some_wait_##TYPENAME);                     \
        memset(ivars_##TYPENAME, 0, sizeof(ivars_##TYPENAME));                 \
        shmem_barrier_all();                                                   \
        XG_CHECK(shmem_##TYPENAME##_test_all(ivars_##TYPENAME, N, NULL,        \
                                             SHMEM_CMP_NE, 0) == 0,            \
                 #TYPENAME " test_all before the writes");                     \
        shmem_barrier_all();                                                   \
        ring(all_write_##TYPENAME, all_wait_##TYPENAME);                       \
        memset(ivars_##TYPENAME, 0, sizeof(ivars_##TYPENAME));                 \
        shmem_barrier_all();                                                   \
        ring(all_write_##TYPENAME, vector_wait_##TYPENAME);                    \
    }
XG_SHMEM_SYNC_TYPES(DEFINE_SET_TEST)
XG_SHMEM_SYNC_DEPRECATED_TYPES(DEFINE_SET_TEST)

int main(void)
{
    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    next       = (me + 1) % npes;
    xg_test_pe = me;

#define RUN_SET_TEST(TYPE, TYPENAME) \
    local_##TYPENAME();              \
    ring_##TYPENAME();
    XG_SHMEM_SYNC_TYPES(RUN_SET_TEST)
    XG_SHMEM_SYNC_DEPRECATED_TYPES(RUN_SET_TEST)
#undef RUN_SET_TEST

    shmem_finalize();
    return XG_TEST_PASS;
}
