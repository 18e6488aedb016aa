/*
 * Scans (OpenSHMEM 1.6): shmem_TYPENAME_sum_inscan and _exscan for every
 * type of the team table, on every test team, with 1, 7 and 3000 elements
 * (recursive doubling), in place and out of place, and with 70001 elements
 * on the world and the reverse team (the split algorithm); complex types;
 * the C11 generic forms.  Values are small integers, so every prefix is
 * exact; member r must hold the sum over members 0..r (inscan) or 0..r-1
 * (exscan, zeros on member 0), and the element after the range must keep
 * its sentinel.
 */
#include <complex.h>
#include <shmem.h>
#include <stdint.h>

#include "coll_test.h"

#define BIG_COUNT 70001
#define BUF_BYTES (2u << 20)

static unsigned char *src, *dst;

/* Whether T is signed (a function, not a constant comparison, which
 * compilers flag for unsigned types). */
static int negative(long double v)
{
    return v < 0;
}
#define SIGNED(T)    negative((long double)(T)-1)
#define VAL(T, r, i) ((T)(((r)*3 + (int)(i)) % 5 - (SIGNED(T) ? 2 : 0)))

#define SCAN_TEST(TYPE, TYPENAME)                                              \
    static void scan_##TYPENAME(const char *what, shmem_team_t team, size_t n, \
                                int in_place, int exclusive)                   \
    {                                                                          \
        TYPE *s = (TYPE *)src, *d = in_place ? s : (TYPE *)dst;                \
        int r = shmem_team_my_pe(team), q, rc;                                 \
        size_t i;                                                              \
                                                                               \
        for (i = 0; i < n; i++) {                                              \
            s[i] = VAL(TYPE, r, i);                                            \
        }                                                                      \
        d[n] = (TYPE)77;                                                       \
        rc   = exclusive ? shmem_##TYPENAME##_sum_exscan(team, d, s, n)        \
                         : shmem_##TYPENAME##_sum_inscan(team, d, s, n);       \
        XG_CHECK(rc == 0, "%s: " #TYPENAME " scan", what);                     \
        for (i = 0; i < n; i++) {                                              \
            TYPE want = 0;                                                     \
                                                                               \
            for (q = 0; q < r + (exclusive ? 0 : 1); q++) {                    \
                want = (TYPE)(want + VAL(TYPE, q, i));                         \
            }                                                                  \
            if (d[i] != want) {                                                \
                XG_CHECK(0,                                                    \
                         "%s: " #TYPENAME "_sum_%s of %zu (%s): "              \
                         "element %zu wrong on member %d",                     \
                         what, exclusive ? "exscan" : "inscan", n,             \
                         in_place ? "in place" : "out of place", i, r);        \
            }                                                                  \
        }                                                                      \
        XG_CHECK(d[n] == (TYPE)77,                                             \
                 "%s: " #TYPENAME " scan wrote past the end", what);           \
    }
XG_SHMEM_REDUCE_MINMAX_TYPES(SCAN_TEST)

#define CPLX_SCAN(TYPE, TYPENAME)                                            \
    static void cscan_##TYPENAME(const char *what, shmem_team_t team,        \
                                 size_t n, int exclusive)                    \
    {                                                                        \
        TYPE *s = (TYPE *)src, *d = (TYPE *)dst, want;                       \
        int r = shmem_team_my_pe(team), q;                                   \
        size_t i;                                                            \
                                                                             \
        for (i = 0; i < n; i++) {                                            \
            s[i] = (TYPE)(r + I * (int)(i % 4));                             \
        }                                                                    \
        XG_CHECK((exclusive                                                  \
                      ? shmem_##TYPENAME##_sum_exscan(team, d, s, n)         \
                      : shmem_##TYPENAME##_sum_inscan(team, d, s, n)) == 0,  \
                 "complex scan");                                            \
        for (i = 0; i < n; i++) {                                            \
            for (want = 0, q = 0; q < r + (exclusive ? 0 : 1); q++) {        \
                want += (TYPE)(q + I * (int)(i % 4));                        \
            }                                                                \
            XG_CHECK(d[i] == want, "%s: " #TYPENAME " scan [%zu]", what, i); \
        }                                                                    \
    }
CPLX_SCAN(double _Complex, complexd)
CPLX_SCAN(float _Complex, complexf)

static void all_types(const char *what, shmem_team_t team, size_t n,
                      int in_place)
{
    int ex;

    for (ex = 0; ex < 2; ex++) {
#define CALL(TYPE, TYPENAME) scan_##TYPENAME(what, team, n, in_place, ex);
        XG_SHMEM_REDUCE_MINMAX_TYPES(CALL)
#undef CALL
        cscan_complexd(what, team, n < 2000 ? n : 2000, ex);
        cscan_complexf(what, team, n < 2000 ? n : 2000, ex);
    }
}

static void generic(shmem_team_t team)
{
    int r    = shmem_team_my_pe(team);
    long *sl = (long *)src, *dl = (long *)dst;
    float *sf = (float *)src, *df = (float *)dst;

    sl[0] = r + 1;
    XG_CHECK(shmem_sum_inscan(team, dl, sl, 1) == 0, "C11 inscan");
    XG_CHECK(dl[0] == (long)(r + 1) * (r + 2) / 2, "C11 long inscan %ld",
             dl[0]);
    sf[0] = 2.0f;
    XG_CHECK(shmem_sum_exscan(team, df, sf, 1) == 0, "C11 exscan");
    XG_CHECK(df[0] == 2.0f * (float)r, "C11 float exscan %g", (double)df[0]);
}

int main(void)
{
    static const size_t counts[] = {1, 7, 3000};
    int t;
    unsigned c;

    shmem_init();
    xg_test_pe = shmem_my_pe();
    src        = shmem_malloc(BUF_BYTES);
    dst        = shmem_malloc(BUF_BYTES);
    XG_CHECK((src != NULL) && (dst != NULL), "shmem_malloc");
    coll_test_teams_create();

    for (t = 0; t < COLL_TEST_TEAMS; t++) {
        shmem_team_t team = coll_teams[t].team;

        if (team == SHMEM_TEAM_INVALID) {
            continue;
        }
        for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
            all_types(coll_teams[t].name, team, counts[c], 0);
        }
        all_types(coll_teams[t].name, team, 7, 1);
        generic(team);
        if (t == 0) {
            all_types(coll_teams[t].name, team, BIG_COUNT, 0);
        } else if (t == 3) {
            all_types(coll_teams[t].name, team, BIG_COUNT, 1);
        }
    }

    coll_test_teams_destroy();
    shmem_free(dst);
    shmem_free(src);
    shmem_finalize();
    return XG_TEST_PASS;
}
