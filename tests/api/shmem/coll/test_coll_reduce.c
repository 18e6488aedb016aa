/*
 * Reductions: every (type, operation) pair of the OpenSHMEM 1.6 team table
 * on every test team with 1, 7 and 3000 elements (the small-payload tree),
 * with 70001 elements on the world and the reverse team (reduce-scatter +
 * allgather from 16 KiB), in place and out of place; the C11 generic forms;
 * the complex sums and products; and every deprecated _to_all routine on
 * the job and on the even PEs, with pSync back at SHMEM_SYNC_VALUE after.
 *
 * Values are small integers (negative ones for signed and real types), so
 * every result is exact whatever order the library combines in; each PE
 * computes the expected result itself from the same value function, and
 * the element after the range must keep its sentinel.
 */
#include <complex.h>
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "coll_test.h"

#define BIG_COUNT 70001
#define BUF_BYTES (2u << 20)

static int me, npes;
static unsigned char *src, *dst;
static long psync[SHMEM_REDUCE_SYNC_SIZE];
static long double pwrk[4096]; /* symmetric, aligned for every type */

/* Whether T is signed (a function, not a constant comparison, which
 * compilers flag for unsigned types). */
static int negative(long double v)
{
    return v < 0;
}
#define SIGNED(T) negative((long double)(T)-1)

/* The value of member r at element i for operation OP. */
#define VAL_and(T, r, i) ((T)((0x5a + 3 * (r) + 11 * (int)(i)) & 0x7f))
#define VAL_or(T, r, i)  VAL_and(T, r, i)
#define VAL_xor(T, r, i) VAL_and(T, r, i)
#define VAL_max(T, r, i) \
    ((T)(((r)*37 + (int)(i)*11) % 97 - (SIGNED(T) ? 48 : 0)))
#define VAL_min(T, r, i) VAL_max(T, r, i)
#define VAL_sum(T, r, i) ((T)(((r) + (int)(i)) % 4 - (SIGNED(T) ? 1 : 0)))
#define VAL_prod(T, r, i)            \
    ((T)((((r) + (int)(i)) % 3 == 0) \
             ? 2                     \
             : (((((r) + (int)(i)) % 5 == 1) && SIGNED(T)) ? -1 : 1)))

#define COMB_and(a, b)  ((a) & (b))
#define COMB_or(a, b)   ((a) | (b))
#define COMB_xor(a, b)  ((a) ^ (b))
#define COMB_max(a, b)  (((b) > (a)) ? (b) : (a))
#define COMB_min(a, b)  (((b) < (a)) ? (b) : (a))
#define COMB_sum(a, b)  ((a) + (b))
#define COMB_prod(a, b) ((a) * (b))

/* Runs shmem_TYPENAME_OP_reduce on @team and checks every element. */
#define RED_TEST(TYPE, TYPENAME, OP)                                          \
    static void red_##TYPENAME##_##OP(const char *what, shmem_team_t team,    \
                                      size_t n, int in_place)                 \
    {                                                                         \
        TYPE *s = (TYPE *)src, *d = in_place ? s : (TYPE *)dst;               \
        int r = shmem_team_my_pe(team), np = shmem_team_n_pes(team), q;       \
        size_t i;                                                             \
                                                                              \
        for (i = 0; i < n; i++) {                                             \
            s[i] = VAL_##OP(TYPE, r, i);                                      \
        }                                                                     \
        d[n] = (TYPE)99;                                                      \
        XG_CHECK(shmem_##TYPENAME##_##OP##_reduce(team, d, s, n) == 0,        \
                 "%s: " #TYPENAME "_" #OP "_reduce", what);                   \
        for (i = 0; i < n; i++) {                                             \
            TYPE want = VAL_##OP(TYPE, 0, i);                                 \
                                                                              \
            for (q = 1; q < np; q++) {                                        \
                want = (TYPE)COMB_##OP(want, VAL_##OP(TYPE, q, i));           \
            }                                                                 \
            if (d[i] != want) {                                               \
                XG_CHECK(0,                                                   \
                         "%s: " #TYPENAME "_" #OP "_reduce of %zu "           \
                         "(%s): element %zu wrong",                           \
                         what, n, in_place ? "in place" : "out of place", i); \
            }                                                                 \
        }                                                                     \
        XG_CHECK(d[n] == (TYPE)99,                                            \
                 "%s: " #TYPENAME "_" #OP ": element past the end changed",   \
                 what);                                                       \
    }
#define RED_BITWISE(TYPE, TYPENAME) \
    RED_TEST(TYPE, TYPENAME, and)   \
    RED_TEST(TYPE, TYPENAME, or)    \
    RED_TEST(TYPE, TYPENAME, xor)
#define RED_MINMAX(TYPE, TYPENAME) \
    RED_TEST(TYPE, TYPENAME, max)  \
    RED_TEST(TYPE, TYPENAME, min)
#define RED_ARITH(TYPE, TYPENAME) \
    RED_TEST(TYPE, TYPENAME, sum) \
    RED_TEST(TYPE, TYPENAME, prod)
XG_SHMEM_REDUCE_BITWISE_TYPES(RED_BITWISE)
XG_SHMEM_REDUCE_MINMAX_TYPES(RED_MINMAX)
XG_SHMEM_REDUCE_MINMAX_TYPES(RED_ARITH) /* complex ones: see below */

static void all_types(const char *what, shmem_team_t team, size_t n,
                      int in_place)
{
#define CALL(TYPE, TYPENAME, OP) red_##TYPENAME##_##OP(what, team, n, in_place);
#define CALL_BITWISE(TYPE, TYPENAME) \
    CALL(TYPE, TYPENAME, and) CALL(TYPE, TYPENAME, or) CALL(TYPE, TYPENAME, xor)
#define CALL_MINMAX(TYPE, TYPENAME) \
    CALL(TYPE, TYPENAME, max) CALL(TYPE, TYPENAME, min)
#define CALL_ARITH(TYPE, TYPENAME) \
    CALL(TYPE, TYPENAME, sum) CALL(TYPE, TYPENAME, prod)
    XG_SHMEM_REDUCE_BITWISE_TYPES(CALL_BITWISE)
    XG_SHMEM_REDUCE_MINMAX_TYPES(CALL_MINMAX)
    XG_SHMEM_REDUCE_MINMAX_TYPES(CALL_ARITH)
}

/* Complex sum and product: exact small Gaussian integers. */
#define CPLX_TEST(TYPE, TYPENAME)                                              \
    static void cplx_##TYPENAME(const char *what, shmem_team_t team, size_t n) \
    {                                                                          \
        TYPE *s = (TYPE *)src, *d = (TYPE *)dst, want;                         \
        int r = shmem_team_my_pe(team), np = shmem_team_n_pes(team), q;        \
        size_t i;                                                              \
                                                                               \
        for (i = 0; i < n; i++) {                                              \
            s[i] = (TYPE)((r + (int)i % 3) + I * (r % 2));                     \
        }                                                                      \
        XG_CHECK(shmem_##TYPENAME##_sum_reduce(team, d, s, n) == 0, "sum");    \
        for (i = 0; i < n; i++) {                                              \
            for (want = 0, q = 0; q < np; q++) {                               \
                want += (TYPE)((q + (int)i % 3) + I * (q % 2));                \
            }                                                                  \
            XG_CHECK(d[i] == want, "%s: " #TYPENAME "_sum_reduce [%zu]", what, \
                     i);                                                       \
        }                                                                      \
        for (i = 0; i < n; i++) {                                              \
            s[i] = ((r + (int)i) % 3 == 0) ? (TYPE)(1 + I) : (TYPE)1;          \
        }                                                                      \
        XG_CHECK(shmem_##TYPENAME##_prod_reduce(team, d, s, n) == 0, "prod");  \
        for (i = 0; i < n; i++) {                                              \
            for (want = 1, q = 0; q < np; q++) {                               \
                want *= ((q + (int)i) % 3 == 0) ? (TYPE)(1 + I) : (TYPE)1;     \
            }                                                                  \
            XG_CHECK(d[i] == want, "%s: " #TYPENAME "_prod_reduce [%zu]",      \
                     what, i);                                                 \
        }                                                                      \
    }
CPLX_TEST(double _Complex, complexd)
CPLX_TEST(float _Complex, complexf)

/* The C11 generic selections reach the typed routines. */
static void generic(shmem_team_t team)
{
    int np = shmem_team_n_pes(team), r = shmem_team_my_pe(team);
    int *si = (int *)src, *di = (int *)dst;
    double *sd = (double *)src, *dd = (double *)dst;
    unsigned long *su = (unsigned long *)src, *du = (unsigned long *)dst;

    si[0] = r + 1;
    XG_CHECK(shmem_sum_reduce(team, di, si, 1) == 0, "C11 sum");
    XG_CHECK(di[0] == np * (np + 1) / 2, "C11 int sum %d", di[0]);
    XG_CHECK(shmem_max_reduce(team, di, si, 1) == 0, "C11 max");
    XG_CHECK(di[0] == np, "C11 int max %d", di[0]);
    XG_CHECK(shmem_min_reduce(team, di, si, 1) == 0, "C11 min");
    XG_CHECK(di[0] == 1, "C11 int min %d", di[0]);
    sd[0] = (r == 0) ? 3.0 : 1.0;
    XG_CHECK(shmem_prod_reduce(team, dd, sd, 1) == 0, "C11 prod");
    XG_CHECK(dd[0] == 3.0, "C11 double prod %g", dd[0]);
    su[0] = 1ul << (r % 60);
    XG_CHECK(shmem_or_reduce(team, du, su, 1) == 0, "C11 or");
    XG_CHECK(du[0] == ((np >= 60) ? ~0ul >> 4 : (1ul << np) - 1),
             "C11 ulong or %#lx", du[0]);
    su[0] = ~0ul;
    XG_CHECK(shmem_and_reduce(team, du, su, 1) == 0, "C11 and");
    XG_CHECK(du[0] == ~0ul, "C11 and %#lx", du[0]);
    su[0] = 1;
    XG_CHECK(shmem_xor_reduce(team, du, su, 1) == 0, "C11 xor");
    XG_CHECK(du[0] == (unsigned long)(np % 2), "C11 xor %lu", du[0]);
}

/* ---- deprecated _to_all ------------------------------------------------- */

#define TOALL_TEST(TYPE, TYPENAME, OP)                                      \
    static void toall_##TYPENAME##_##OP(int start, int logstride, int size, \
                                        int n)                              \
    {                                                                       \
        TYPE *s = (TYPE *)src, *d = (TYPE *)dst;                            \
        int r = (me - start) >> logstride, q, i;                            \
                                                                            \
        for (i = 0; i < n; i++) {                                           \
            s[i] = VAL_##OP(TYPE, r, i);                                    \
        }                                                                   \
        shmem_##TYPENAME##_##OP##_to_all(d, s, n, start, logstride, size,   \
                                         (TYPE *)pwrk, psync);              \
        for (i = 0; i < n; i++) {                                           \
            TYPE want = VAL_##OP(TYPE, 0, i);                               \
                                                                            \
            for (q = 1; q < size; q++) {                                    \
                want = (TYPE)COMB_##OP(want, VAL_##OP(TYPE, q, i));         \
            }                                                               \
            if (d[i] != want) {                                             \
                XG_CHECK(0,                                                 \
                         #TYPENAME "_" #OP "_to_all (%d, %d, %d) of "       \
                                   "%d: element %d wrong",                  \
                         start, logstride, size, n, i);                     \
            }                                                               \
        }                                                                   \
    }
#define TOALL_BITWISE(TYPE, TYPENAME) \
    TOALL_TEST(TYPE, TYPENAME, and)   \
    TOALL_TEST(TYPE, TYPENAME, or)    \
    TOALL_TEST(TYPE, TYPENAME, xor)
#define TOALL_MINMAX(TYPE, TYPENAME) \
    TOALL_TEST(TYPE, TYPENAME, max)  \
    TOALL_TEST(TYPE, TYPENAME, min)
#define TOALL_ARITH(TYPE, TYPENAME) \
    TOALL_TEST(TYPE, TYPENAME, sum) \
    TOALL_TEST(TYPE, TYPENAME, prod)
XG_SHMEM_TOALL_BITWISE_TYPES(TOALL_BITWISE)
XG_SHMEM_TOALL_MINMAX_TYPES(TOALL_MINMAX)
XG_SHMEM_TOALL_MINMAX_TYPES(TOALL_ARITH)

/* Every _to_all on one active set; a barrier of the job after each, since
 * the pSync is reused. */
static void toall_set(int start, int logstride, int size, int member)
{
    static const int counts[] = {1, 7, 3000};
    unsigned c;

    for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        int n = counts[c];

#define TCALL(TYPE, TYPENAME, OP)                           \
    if (member) {                                           \
        toall_##TYPENAME##_##OP(start, logstride, size, n); \
    }                                                       \
    shmem_barrier_all();
#define TCALL_BITWISE(TYPE, TYPENAME) \
    TCALL(TYPE, TYPENAME, and)        \
    TCALL(TYPE, TYPENAME, or) TCALL(TYPE, TYPENAME, xor)
#define TCALL_MINMAX(TYPE, TYPENAME) \
    TCALL(TYPE, TYPENAME, max) TCALL(TYPE, TYPENAME, min)
#define TCALL_ARITH(TYPE, TYPENAME) \
    TCALL(TYPE, TYPENAME, sum) TCALL(TYPE, TYPENAME, prod)
        XG_SHMEM_TOALL_BITWISE_TYPES(TCALL_BITWISE)
        XG_SHMEM_TOALL_MINMAX_TYPES(TCALL_MINMAX)
        XG_SHMEM_TOALL_MINMAX_TYPES(TCALL_ARITH)
    }
}

static void toall_complex(void)
{
    double _Complex *s = (double _Complex *)src, *d = (double _Complex *)dst;
    float _Complex *sf = (float _Complex *)src, *df = (float _Complex *)dst;

    s[0] = me + I;
    shmem_complexd_sum_to_all(d, s, 1, 0, 0, npes, (double _Complex *)pwrk,
                              psync);
    XG_CHECK(d[0] == (double)(npes * (npes - 1) / 2) + I * npes,
             "complexd_sum_to_all");
    shmem_barrier_all();
    sf[0] = (me == 0) ? (float _Complex)(1 + I) : (float _Complex)1;
    shmem_complexf_prod_to_all(df, sf, 1, 0, 0, npes, (float _Complex *)pwrk,
                               psync);
    XG_CHECK(df[0] == (float _Complex)(1 + I), "complexf_prod_to_all");
    shmem_barrier_all();
}

int main(void)
{
    static const size_t counts[] = {1, 7, 3000};
    int t;
    unsigned c;

    coll_test_start(BUF_BYTES, &src, &dst);
    me   = shmem_my_pe();
    npes = shmem_n_pes();

    for (t = 0; t < COLL_TEST_TEAMS; t++) {
        shmem_team_t team = coll_teams[t].team;

        if (team == SHMEM_TEAM_INVALID) {
            continue;
        }
        for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
            all_types(coll_teams[t].name, team, counts[c], 0);
        }
        all_types(coll_teams[t].name, team, 7, 1);
        cplx_complexd(coll_teams[t].name, team, 5);
        cplx_complexf(coll_teams[t].name, team, 5);
        generic(team);
        /* the split algorithm: out of place on the world, in place in
         * reverse order */
        if (t == 0) {
            all_types(coll_teams[t].name, team, BIG_COUNT, 0);
            cplx_complexd(coll_teams[t].name, team, BIG_COUNT / 16);
        } else if (t == 3) {
            all_types(coll_teams[t].name, team, BIG_COUNT, 1);
        }
    }

    shmem_barrier_all();
    toall_set(0, 0, npes, 1);
    toall_set(0, 1, (npes + 1) / 2, me % 2 == 0);
    toall_complex();
    return coll_test_finish(psync, SHMEM_REDUCE_SYNC_SIZE, src, dst);
}
