/*
 * Communication contexts: creation with every option, the handles and their
 * invalid values, and the context form of every RMA, atomic and
 * put-with-signal routine, each with exact value checks.  Each PE writes
 * into the memory of its right neighbour on a context of the world team
 * (created, team-created and the default one), so every value is known.
 * Contexts of sub-teams, whose PE numbers are team-relative, are tested in
 * test_ctx_team.c.
 */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "xg_test.h"

#define N 16

static int me, npes, right, left;

/* One symmetric array and one scalar per RMA type. */
#define DEFINE_RMA_VARS(TYPE, TYPENAME) \
    static TYPE arr_##TYPENAME[2 * N];  \
    static TYPE one_##TYPENAME;
XG_SHMEM_RMA_TYPES(DEFINE_RMA_VARS)

#define DEFINE_AMO_VAR(TYPE, TYPENAME) static TYPE amo_##TYPENAME;
XG_SHMEM_AMO_EXTENDED_TYPES(DEFINE_AMO_VAR)

static uint64_t sig;
static unsigned char bytes[8 * N];

/* Value of element i written by PE pe in round r. */
#define VAL(TYPE, pe, r, i) ((TYPE)(((pe)*7 + (r)*3 + (i)) % 100))

#define TEST_RMA(TYPE, TYPENAME)                                               \
    static void test_rma_##TYPENAME(shmem_ctx_t ctx)                           \
    {                                                                          \
        TYPE src[2 * N], back[2 * N];                                          \
        int i;                                                                 \
                                                                               \
        for (i = 0; i < 2 * N; i++) {                                          \
            src[i] = VAL(TYPE, me, 1, i);                                      \
        }                                                                      \
        shmem_ctx_##TYPENAME##_put(ctx, arr_##TYPENAME, src, N, right);        \
        shmem_ctx_##TYPENAME##_put_nbi(ctx, arr_##TYPENAME + N, src + N, N,    \
                                       right);                                 \
        shmem_ctx_##TYPENAME##_p(ctx, &one_##TYPENAME, VAL(TYPE, me, 2, 0),    \
                                 right);                                       \
        shmem_ctx_quiet(ctx);                                                  \
        shmem_barrier_all();                                                   \
        for (i = 0; i < 2 * N; i++) {                                          \
            XG_CHECK(arr_##TYPENAME[i] == VAL(TYPE, left, 1, i),               \
                     "shmem_ctx_%s_put element %d", #TYPENAME, i);             \
        }                                                                      \
        XG_CHECK(one_##TYPENAME == VAL(TYPE, left, 2, 0), "shmem_ctx_%s_p",    \
                 #TYPENAME);                                                   \
        shmem_barrier_all();                                                   \
        memset(back, 0, sizeof(back));                                         \
        shmem_ctx_##TYPENAME##_get(ctx, back, arr_##TYPENAME, N, right);       \
        shmem_ctx_##TYPENAME##_get_nbi(ctx, back + N, arr_##TYPENAME + N, N,   \
                                       right);                                 \
        shmem_ctx_quiet(ctx);                                                  \
        for (i = 0; i < 2 * N; i++) {                                          \
            XG_CHECK(back[i] == VAL(TYPE, me, 1, i),                           \
                     "shmem_ctx_%s_get element %d", #TYPENAME, i);             \
        }                                                                      \
        XG_CHECK(shmem_ctx_##TYPENAME##_g(ctx, &one_##TYPENAME, right) ==      \
                     VAL(TYPE, me, 2, 0),                                      \
                 "shmem_ctx_%s_g", #TYPENAME);                                 \
        shmem_barrier_all();                                                   \
        /* strided: every other element; blocks of 2 every 4 */                \
        shmem_ctx_##TYPENAME##_iput(ctx, arr_##TYPENAME, src, 2, 1, N, right); \
        shmem_ctx_quiet(ctx);                                                  \
        shmem_barrier_all();                                                   \
        for (i = 0; i < N; i++) {                                              \
            XG_CHECK(arr_##TYPENAME[2 * i] == VAL(TYPE, left, 1, i),           \
                     "shmem_ctx_%s_iput element %d", #TYPENAME, i);            \
        }                                                                      \
        shmem_barrier_all();                                                   \
        shmem_ctx_##TYPENAME##_iget(ctx, back, arr_##TYPENAME, 1, 2, N,        \
                                    right);                                    \
        for (i = 0; i < N; i++) {                                              \
            XG_CHECK(back[i] == VAL(TYPE, me, 1, i),                           \
                     "shmem_ctx_%s_iget element %d", #TYPENAME, i);            \
        }                                                                      \
        shmem_barrier_all();                                                   \
        shmem_ctx_##TYPENAME##_ibput(ctx, arr_##TYPENAME, src, 4, 2, 2, N / 2, \
                                     right);                                   \
        shmem_ctx_quiet(ctx);                                                  \
        shmem_barrier_all();                                                   \
        for (i = 0; i < N / 2; i++) {                                          \
            XG_CHECK((arr_##TYPENAME[4 * i] == VAL(TYPE, left, 1, 2 * i)) &&   \
                         (arr_##TYPENAME[4 * i + 1] ==                         \
                          VAL(TYPE, left, 1, 2 * i + 1)),                      \
                     "shmem_ctx_%s_ibput block %d", #TYPENAME, i);             \
        }                                                                      \
        shmem_barrier_all();                                                   \
        memset(back, 0, sizeof(back));                                         \
        shmem_ctx_##TYPENAME##_ibget(ctx, back, arr_##TYPENAME, 2, 4, 2,       \
                                     N / 2, right);                            \
        for (i = 0; i < N / 2; i++) {                                          \
            XG_CHECK((back[2 * i] == VAL(TYPE, me, 1, 2 * i)) &&               \
                         (back[2 * i + 1] == VAL(TYPE, me, 1, 2 * i + 1)),     \
                     "shmem_ctx_%s_ibget block %d", #TYPENAME, i);             \
        }                                                                      \
        shmem_barrier_all();                                                   \
        /* put-with-signal, both operations */                                 \
        sig = 0;                                                               \
        shmem_barrier_all();                                                   \
        shmem_ctx_##TYPENAME##_put_signal(ctx, arr_##TYPENAME, src, N, &sig,   \
                                          5, SHMEM_SIGNAL_SET, right);         \
        shmem_ctx_##TYPENAME##_put_signal_nbi(ctx, arr_##TYPENAME + N,         \
                                              src + N, N, &sig, 2,             \
                                              SHMEM_SIGNAL_ADD, right);        \
        shmem_ctx_quiet(ctx);                                                  \
        XG_CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 7) == 7,          \
                 "signal after shmem_ctx_%s_put_signal", #TYPENAME);           \
        for (i = 0; i < 2 * N; i++) {                                          \
            XG_CHECK(arr_##TYPENAME[i] == VAL(TYPE, left, 1, i),               \
                     "shmem_ctx_%s_put_signal element %d", #TYPENAME, i);      \
        }                                                                      \
        shmem_barrier_all();                                                   \
    }
XG_SHMEM_RMA_TYPES(TEST_RMA)

#define RUN_RMA(TYPE, TYPENAME) test_rma_##TYPENAME(ctx);

/* The sized and byte forms, on an array of 8 * N bytes. */
#define TEST_SIZED(SIZE)                                                  \
    static void test_sized_##SIZE(shmem_ctx_t ctx)                        \
    {                                                                     \
        unsigned char src[8 * N], back[8 * N];                            \
        size_t n = sizeof(src) / ((SIZE) / 8), i;                         \
                                                                          \
        for (i = 0; i < sizeof(src); i++) {                               \
            src[i] = (unsigned char)(me * 31 + i + (SIZE));               \
        }                                                                 \
        shmem_ctx_put##SIZE(ctx, bytes, src, n / 2, right);               \
        shmem_ctx_put##SIZE##_nbi(ctx, bytes + sizeof(src) / 2,           \
                                  src + sizeof(src) / 2, n / 2, right);   \
        shmem_ctx_quiet(ctx);                                             \
        shmem_barrier_all();                                              \
        for (i = 0; i < sizeof(src); i++) {                               \
            XG_CHECK(bytes[i] == (unsigned char)(left * 31 + i + (SIZE)), \
                     "shmem_ctx_put%d byte %zu", SIZE, i);                \
        }                                                                 \
        shmem_barrier_all();                                              \
        shmem_ctx_get##SIZE(ctx, back, bytes, n / 2, right);              \
        shmem_ctx_get##SIZE##_nbi(ctx, back + sizeof(src) / 2,            \
                                  bytes + sizeof(src) / 2, n / 2, right); \
        shmem_ctx_quiet(ctx);                                             \
        XG_CHECK(memcmp(back, src, sizeof(src)) == 0, "shmem_ctx_get%d",  \
                 SIZE);                                                   \
        shmem_barrier_all();                                              \
        memset(back, 0, sizeof(back));                                    \
        shmem_ctx_iput##SIZE(ctx, bytes, src, 2, 1, n / 2, right);        \
        shmem_ctx_ibput##SIZE(ctx, bytes, src, 2, 2, 1, n / 2, right);    \
        shmem_ctx_iget##SIZE(ctx, back, bytes, 1, 1, n, right);           \
        shmem_ctx_ibget##SIZE(ctx, back, bytes, 1, 1, n, 1, right);       \
        XG_CHECK(memcmp(back, src, sizeof(src)) == 0,                     \
                 "shmem_ctx_[i,ib]{put,get}%d", SIZE);                    \
        shmem_ctx_put##SIZE##_signal(ctx, bytes, src, n, &sig, 1,         \
                                     SHMEM_SIGNAL_ADD, right);            \
        shmem_ctx_put##SIZE##_signal_nbi(ctx, bytes, src, n, &sig, 1,     \
                                         SHMEM_SIGNAL_ADD, right);        \
        shmem_ctx_quiet(ctx);                                             \
        shmem_barrier_all();                                              \
    }
XG_SHMEM_RMA_SIZES(TEST_SIZED)

#define RUN_SIZED(SIZE) test_sized_##SIZE(ctx);

#define TEST_AMO_STANDARD(TYPE, TYPENAME)                                      \
    static void test_amo_##TYPENAME(shmem_ctx_t ctx)                           \
    {                                                                          \
        TYPE *obj = &amo_##TYPENAME, f;                                        \
                                                                               \
        shmem_ctx_##TYPENAME##_atomic_set(ctx, obj, 10, right);                \
        XG_CHECK(shmem_ctx_##TYPENAME##_atomic_fetch(ctx, obj, right) == 10,   \
                 "shmem_ctx_%s_atomic_fetch", #TYPENAME);                      \
        XG_CHECK(shmem_ctx_##TYPENAME##_atomic_compare_swap(ctx, obj, 10, 20,  \
                                                            right) == 10,      \
                 "shmem_ctx_%s_atomic_compare_swap", #TYPENAME);               \
        shmem_ctx_##TYPENAME##_atomic_compare_swap_nbi(ctx, &f, obj, 20, 21,   \
                                                       right);                 \
        shmem_ctx_quiet(ctx);                                                  \
        XG_CHECK(f == 20, "shmem_ctx_%s_atomic_compare_swap_nbi", #TYPENAME);  \
        XG_CHECK(shmem_ctx_##TYPENAME##_atomic_swap(ctx, obj, 30, right) ==    \
                     21,                                                       \
                 "shmem_ctx_%s_atomic_swap", #TYPENAME);                       \
        shmem_ctx_##TYPENAME##_atomic_swap_nbi(ctx, &f, obj, 31, right);       \
        shmem_ctx_quiet(ctx);                                                  \
        XG_CHECK(f == 30, "shmem_ctx_%s_atomic_swap_nbi", #TYPENAME);          \
        XG_CHECK(shmem_ctx_##TYPENAME##_atomic_fetch_inc(ctx, obj, right) ==   \
                     31,                                                       \
                 "shmem_ctx_%s_atomic_fetch_inc", #TYPENAME);                  \
        shmem_ctx_##TYPENAME##_atomic_inc(ctx, obj, right);                    \
        shmem_ctx_##TYPENAME##_atomic_fetch_inc_nbi(ctx, &f, obj, right);      \
        shmem_ctx_quiet(ctx);                                                  \
        XG_CHECK(f == 33, "shmem_ctx_%s_atomic_fetch_inc_nbi", #TYPENAME);     \
        XG_CHECK(                                                              \
            shmem_ctx_##TYPENAME##_atomic_fetch_add(ctx, obj, 6, right) == 34, \
            "shmem_ctx_%s_atomic_fetch_add", #TYPENAME);                       \
        shmem_ctx_##TYPENAME##_atomic_add(ctx, obj, 5, right);                 \
        shmem_ctx_##TYPENAME##_atomic_fetch_add_nbi(ctx, &f, obj, 5, right);   \
        shmem_ctx_quiet(ctx);                                                  \
        XG_CHECK(f == 45, "shmem_ctx_%s_atomic_fetch_add_nbi", #TYPENAME);     \
        shmem_ctx_##TYPENAME##_atomic_fetch_nbi(ctx, &f, obj, right);          \
        shmem_ctx_quiet(ctx);                                                  \
        XG_CHECK(f == 50, "shmem_ctx_%s_atomic_fetch_nbi", #TYPENAME);         \
        shmem_barrier_all();                                                   \
    }
XG_SHMEM_AMO_STANDARD_TYPES(TEST_AMO_STANDARD)

#define RUN_AMO_STANDARD(TYPE, TYPENAME) test_amo_##TYPENAME(ctx);

static void test_amo_float_double(shmem_ctx_t ctx)
{
    float ff;
    double fd;

    shmem_ctx_float_atomic_set(ctx, &amo_float, 1.5f, right);
    shmem_ctx_double_atomic_set(ctx, &amo_double, 2.25, right);
    XG_CHECK(shmem_ctx_float_atomic_swap(ctx, &amo_float, 3.5f, right) == 1.5f,
             "shmem_ctx_float_atomic_swap");
    XG_CHECK(shmem_ctx_double_atomic_fetch(ctx, &amo_double, right) == 2.25,
             "shmem_ctx_double_atomic_fetch");
    shmem_ctx_float_atomic_fetch_nbi(ctx, &ff, &amo_float, right);
    shmem_ctx_double_atomic_swap_nbi(ctx, &fd, &amo_double, 0.5, right);
    shmem_ctx_quiet(ctx);
    XG_CHECK(ff == 3.5f && fd == 2.25, "float/double nbi: %g %g", ff, fd);
    shmem_barrier_all();
}

#define TEST_AMO_BITWISE(TYPE, TYPENAME)                                    \
    static void test_bitwise_##TYPENAME(shmem_ctx_t ctx)                    \
    {                                                                       \
        TYPE obj_init = (TYPE)0xF0, f;                                      \
        static TYPE obj;                                                    \
                                                                            \
        shmem_ctx_##TYPENAME##_atomic_set(ctx, &obj, obj_init, right);      \
        XG_CHECK(shmem_ctx_##TYPENAME##_atomic_fetch_and(ctx, &obj, 0x3C,   \
                                                         right) == 0xF0,    \
                 "shmem_ctx_%s_atomic_fetch_and", #TYPENAME);               \
        shmem_ctx_##TYPENAME##_atomic_or(ctx, &obj, 0x01, right);           \
        XG_CHECK(shmem_ctx_##TYPENAME##_atomic_fetch_xor(ctx, &obj, 0xFF,   \
                                                         right) == 0x31,    \
                 "shmem_ctx_%s_atomic_fetch_or/xor", #TYPENAME);            \
        shmem_ctx_##TYPENAME##_atomic_and(ctx, &obj, 0x0F, right);          \
        shmem_ctx_##TYPENAME##_atomic_xor(ctx, &obj, 0x20, right);          \
        shmem_ctx_##TYPENAME##_atomic_fetch_or_nbi(ctx, &f, &obj, 0x40,     \
                                                   right);                  \
        shmem_ctx_quiet(ctx);                                               \
        XG_CHECK(f == 0x2E, "shmem_ctx_%s_atomic_fetch_or_nbi", #TYPENAME); \
        shmem_ctx_##TYPENAME##_atomic_fetch_and_nbi(ctx, &f, &obj, 0x60,    \
                                                    right);                 \
        shmem_ctx_##TYPENAME##_atomic_fetch_xor_nbi(ctx, &f, &obj, 0x1,     \
                                                    right);                 \
        shmem_ctx_quiet(ctx);                                               \
        XG_CHECK(f == 0x60, "shmem_ctx_%s_atomic_fetch_and/xor_nbi",        \
                 #TYPENAME);                                                \
        XG_CHECK(shmem_ctx_##TYPENAME##_atomic_fetch(ctx, &obj, right) ==   \
                     0x61,                                                  \
                 "shmem_ctx_%s bitwise result", #TYPENAME);                 \
        shmem_barrier_all();                                                \
    }
XG_SHMEM_AMO_BITWISE_TYPES(TEST_AMO_BITWISE)

#define RUN_BITWISE(TYPE, TYPENAME) test_bitwise_##TYPENAME(ctx);

static void test_every_routine(shmem_ctx_t ctx)
{
    unsigned char src[8 * N];
    size_t i;

    XG_SHMEM_RMA_TYPES(RUN_RMA)
    XG_SHMEM_RMA_SIZES(RUN_SIZED)
    for (i = 0; i < sizeof(src); i++) {
        src[i] = (unsigned char)(me + i);
    }
    shmem_ctx_putmem(ctx, bytes, src, sizeof(src), right);
    shmem_ctx_putmem_nbi(ctx, bytes, src, sizeof(src), right);
    shmem_ctx_putmem_signal(ctx, bytes, src, sizeof(src), &sig, 1,
                            SHMEM_SIGNAL_SET, right);
    shmem_ctx_putmem_signal_nbi(ctx, bytes, src, sizeof(src), &sig, 1,
                                SHMEM_SIGNAL_ADD, right);
    shmem_ctx_signal_set(ctx, &sig, 40, right);
    shmem_ctx_signal_add(ctx, &sig, 2, right);
    shmem_ctx_fence(ctx);
    shmem_ctx_pe_quiet(ctx, right);
    shmem_pe_quiet(right);
    XG_CHECK(shmem_signal_wait_until(&sig, SHMEM_CMP_EQ, 42) == 42 &&
                 shmem_signal_fetch(&sig) == 42,
             "shmem_ctx_signal_set/add");
    memset(src, 0, sizeof(src));
    shmem_ctx_getmem(ctx, src, bytes, sizeof(src), right);
    shmem_ctx_getmem_nbi(ctx, src, bytes, sizeof(src), right);
    shmem_ctx_quiet(ctx);
    for (i = 0; i < sizeof(src); i++) {
        XG_CHECK(src[i] == (unsigned char)(me + i), "shmem_ctx_getmem byte %zu",
                 i);
    }
    shmem_barrier_all();
    XG_SHMEM_AMO_STANDARD_TYPES(RUN_AMO_STANDARD)
    test_amo_float_double(ctx);
    XG_SHMEM_AMO_BITWISE_TYPES(RUN_BITWISE)
}

static void test_handles(void)
{
    shmem_ctx_t ctx = SHMEM_CTX_DEFAULT, unchanged = SHMEM_CTX_DEFAULT;
    shmem_team_t team;
    long options[] = {0,
                      SHMEM_CTX_SERIALIZED,
                      SHMEM_CTX_PRIVATE,
                      SHMEM_CTX_NOSTORE,
                      SHMEM_CTX_PRIVATE | SHMEM_CTX_NOSTORE,
                      SHMEM_CTX_SERIALIZED | SHMEM_CTX_NOSTORE};
    size_t k;
    shmem_ctx_session_config_t config = {.total_ops = 100};

    for (k = 0; k < sizeof(options) / sizeof(options[0]); k++) {
        XG_CHECK(shmem_ctx_create(options[k], &ctx) == 0,
                 "shmem_ctx_create(%ld)", options[k]);
        XG_CHECK(shmem_ctx_get_team(ctx, &team) == 0 &&
                     team == SHMEM_TEAM_WORLD,
                 "shmem_ctx_get_team");
        shmem_ctx_long_p(ctx, &one_long, me, right);
        shmem_ctx_session_start(ctx, SHMEM_CTX_SESSION_BATCH, &config,
                                SHMEM_CTX_SESSION_TOTAL_OPS);
        shmem_ctx_long_p(ctx, &one_long, me, right);
        shmem_ctx_session_stop(ctx);
        shmem_ctx_destroy(ctx);
    }
    /* an unknown option fails without touching the handle */
    XG_CHECK(shmem_ctx_create(1L << 20, &unchanged) != 0 &&
                 unchanged == SHMEM_CTX_DEFAULT,
             "shmem_ctx_create(bad)");
    XG_CHECK(shmem_ctx_get_team(SHMEM_CTX_DEFAULT, &team) == 0 &&
                 team == SHMEM_TEAM_WORLD,
             "default context's team");
    XG_CHECK(shmem_ctx_get_team(SHMEM_CTX_INVALID, &team) != 0 &&
                 team == SHMEM_TEAM_INVALID,
             "invalid context's team");
    shmem_ctx_destroy(SHMEM_CTX_INVALID); /* no action */
    shmem_ctx_session_start(SHMEM_CTX_INVALID, 0, NULL, 0);
    XG_CHECK(shmem_team_create_ctx(SHMEM_TEAM_INVALID, 0, &ctx) != 0 &&
                 ctx == SHMEM_CTX_INVALID,
             "shmem_team_create_ctx(INVALID)");
    XG_CHECK(shmem_team_create_ctx(SHMEM_TEAM_WORLD, SHMEM_CTX_PRIVATE, &ctx) ==
                 0,
             "shmem_team_create_ctx");
    XG_CHECK(shmem_ctx_get_team(ctx, &team) == 0 && team == SHMEM_TEAM_WORLD,
             "team context's team");
    shmem_ctx_destroy(ctx);
}

int main(void)
{
    shmem_ctx_t ctx;

    shmem_init();
    me         = shmem_my_pe();
    npes       = shmem_n_pes();
    xg_test_pe = me;
    right      = (me + 1) % npes;
    left       = (me + npes - 1) % npes;

    test_handles();
    test_every_routine(SHMEM_CTX_DEFAULT);
    XG_CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "create");
    test_every_routine(ctx);
    shmem_ctx_destroy(ctx);
    XG_CHECK(shmem_team_create_ctx(SHMEM_TEAM_SHARED, 0, &ctx) == 0,
             "shmem_team_create_ctx(SHMEM_TEAM_SHARED)");
    /* its PE numbers are the node's (the world's on one node) */
    me    = shmem_team_my_pe(SHMEM_TEAM_SHARED);
    npes  = shmem_team_n_pes(SHMEM_TEAM_SHARED);
    right = (me + 1) % npes;
    left  = (me + npes - 1) % npes;
    test_every_routine(ctx);
    shmem_ctx_destroy(ctx);
    shmem_finalize();
    return XG_TEST_PASS;
}
