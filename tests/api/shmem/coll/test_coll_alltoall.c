/*
 * alltoall and alltoalls: on every test team, typed (a spread of types),
 * the byte forms and the C11 generic forms, with 0, 1, 5 and 300 elements
 * per block and 64 KiB + 3 bytes per block (512 KiB and more per PE with 8
 * PEs); alltoalls with destination strides 1..3 and source strides 1..2,
 * where the elements between the strided ones must stay untouched; then
 * the deprecated alltoall32/64 and alltoalls32/64 on the job and on the
 * even PEs, with pSync back at SHMEM_SYNC_VALUE.  Element k of the block
 * member i sends to member j encodes (i, j, k), so a block from the wrong
 * member or in the wrong place shows.
 */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "coll_test.h"

#define BUF_BYTES (8u << 20)
#define BIG_BLOCK ((64u << 10) + 3)

static int me, npes;
static unsigned char *src, *dst;
static long psync[SHMEM_ALLTOALLS_SYNC_SIZE];

/* Element k of the block member @from sends to member @to. */
static unsigned code(int from, int to, size_t k)
{
    return (unsigned)(from * 37 + to * 11 + (int)(k % 97));
}

#define ALLTOALL_TYPED(TYPE, TYPENAME)                                         \
    static void a2a_##TYPENAME(const char *what, shmem_team_t team, size_t n)  \
    {                                                                          \
        TYPE *s = (TYPE *)src, *d = (TYPE *)dst;                               \
        int r = shmem_team_my_pe(team), np = shmem_team_n_pes(team), q;        \
        size_t k;                                                              \
                                                                               \
        for (q = 0; q < np; q++) {                                             \
            for (k = 0; k < n; k++) {                                          \
                s[(size_t)q * n + k] = (TYPE)(code(r, q, k) % 100);            \
            }                                                                  \
        }                                                                      \
        d[(size_t)np * n] = (TYPE)-1;                                          \
        XG_CHECK(shmem_##TYPENAME##_alltoall(team, d, s, n) == 0,              \
                 "%s " #TYPENAME "_alltoall", what);                           \
        for (q = 0; q < np; q++) {                                             \
            for (k = 0; k < n; k++) {                                          \
                XG_CHECK(d[(size_t)q * n + k] == (TYPE)(code(q, r, k) % 100),  \
                         "%s " #TYPENAME "_alltoall of %zu: block of "         \
                         "member %d, element %zu",                             \
                         what, n, q, k);                                       \
            }                                                                  \
        }                                                                      \
        XG_CHECK(d[(size_t)np * n] == (TYPE)-1,                                \
                 "%s " #TYPENAME "_alltoall: past the end", what);             \
    }                                                                          \
    static void a2as_##TYPENAME(const char *what, shmem_team_t team, size_t n, \
                                ptrdiff_t dst_stride, ptrdiff_t src_stride)    \
    {                                                                          \
        TYPE *s = (TYPE *)src, *d = (TYPE *)dst;                               \
        int r = shmem_team_my_pe(team), np = shmem_team_n_pes(team), q;        \
        size_t k, span = (size_t)np * n * (size_t)dst_stride;                  \
                                                                               \
        for (q = 0; q < np; q++) {                                             \
            for (k = 0; k < n; k++) {                                          \
                s[((size_t)q * n + k) * (size_t)src_stride] =                  \
                    (TYPE)(code(r, q, k) % 100);                               \
            }                                                                  \
        }                                                                      \
        for (k = 0; k <= span; k++) {                                          \
            d[k] = (TYPE)-1;                                                   \
        }                                                                      \
        XG_CHECK(shmem_##TYPENAME##_alltoalls(team, d, s, dst_stride,          \
                                              src_stride, n) == 0,             \
                 "%s " #TYPENAME "_alltoalls", what);                          \
        for (k = 0; k <= span; k++) {                                          \
            size_t e  = k / (size_t)dst_stride;                                \
            TYPE want = (TYPE)-1;                                              \
                                                                               \
            if ((k % (size_t)dst_stride == 0) && (k < span)) {                 \
                want = (TYPE)(code((int)(e / n), r, e % n) % 100);             \
            }                                                                  \
            XG_CHECK(d[k] == want,                                             \
                     "%s " #TYPENAME "_alltoalls of %zu, dst %td sst %td:"     \
                     " element %zu",                                           \
                     what, n, dst_stride, src_stride, k);                      \
        }                                                                      \
    }
#define TEST_TYPES(X)          \
    X(char, char)              \
    X(int, int)                \
    X(long, long)              \
    X(double, double)          \
    X(long double, longdouble) \
    X(uint16_t, uint16)        \
    X(ptrdiff_t, ptrdiff)
TEST_TYPES(ALLTOALL_TYPED)

static void bytes(const char *what, shmem_team_t team, size_t n)
{
    int r = shmem_team_my_pe(team), np = shmem_team_n_pes(team), q;
    size_t k;

    for (q = 0; q < np; q++) {
        for (k = 0; k < n; k++) {
            src[(size_t)q * n + k] = (unsigned char)code(r, q, k);
        }
    }
    dst[(size_t)np * n] = 0xee;
    XG_CHECK(shmem_alltoallmem(team, dst, src, n) == 0, "alltoallmem");
    for (q = 0; q < np; q++) {
        for (k = 0; k < n; k++) {
            if (dst[(size_t)q * n + k] != (unsigned char)code(q, r, k)) {
                XG_CHECK(0, "%s alltoallmem of %zu: member %d byte %zu", what,
                         n, q, k);
            }
        }
    }
    XG_CHECK(dst[(size_t)np * n] == 0xee, "%s alltoallmem: past the end", what);
    /* alltoallsmem with stride 2 on both sides */
    for (q = 0; q < np; q++) {
        for (k = 0; k < n; k++) {
            src[((size_t)q * n + k) * 2] = (unsigned char)code(r, q, k);
        }
    }
    XG_CHECK(shmem_alltoallsmem(team, dst, src, 2, 2, n) == 0, "alltoallsmem");
    for (q = 0; q < np; q++) {
        for (k = 0; k < n; k++) {
            if (dst[((size_t)q * n + k) * 2] != (unsigned char)code(q, r, k)) {
                XG_CHECK(0, "%s alltoallsmem of %zu: member %d byte %zu", what,
                         n, q, k);
            }
        }
    }
}

static void generic(shmem_team_t team)
{
    int r = shmem_team_my_pe(team), np = shmem_team_n_pes(team), q;
    int *s = (int *)src, *d = (int *)dst;

    for (q = 0; q < np; q++) {
        s[q] = r * 100 + q;
    }
    XG_CHECK(shmem_alltoall(team, d, s, 1) == 0, "C11 alltoall");
    for (q = 0; q < np; q++) {
        XG_CHECK(d[q] == q * 100 + r, "C11 alltoall: %d", d[q]);
    }
    for (q = 0; q < np; q++) {
        s[3 * q] = r * 1000 + q;
    }
    XG_CHECK(shmem_alltoalls(team, d, s, 1, 3, 1) == 0, "C11 alltoalls");
    for (q = 0; q < np; q++) {
        XG_CHECK(d[q] == q * 1000 + r, "C11 alltoalls: %d", d[q]);
    }
}

static void team_case(const char *what, shmem_team_t team)
{
    static const size_t counts[] = {0, 1, 5, 300};
    unsigned c;
    ptrdiff_t ds, ss;

    for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
#define RUN(TYPE, TYPENAME) a2a_##TYPENAME(what, team, counts[c]);
        TEST_TYPES(RUN)
#undef RUN
        for (ds = 1; ds <= 3; ds++) {
            for (ss = 1; ss <= 2; ss++) {
#define RUN(TYPE, TYPENAME) a2as_##TYPENAME(what, team, counts[c], ds, ss);
                TEST_TYPES(RUN)
#undef RUN
            }
        }
        bytes(what, team, counts[c]);
    }
    bytes(what, team, BIG_BLOCK);
    generic(team);
}

/* alltoall32/64 and alltoalls32/64 over an active set. */
static void active_set(int start, int logstride, int size)
{
    int r = (me - start) >> logstride, q, bits;
    size_t k, n = 50;

    for (bits = 32; bits <= 64; bits += 32) {
        size_t es = (size_t)bits / 8;

        for (q = 0; q < size; q++) {
            for (k = 0; k < n * es; k++) {
                src[(size_t)q * n * es + k] = (unsigned char)code(r, q, k);
            }
        }
        if (bits == 32) {
            shmem_alltoall32(dst, src, n, start, logstride, size, psync);
        } else {
            shmem_alltoall64(dst, src, n, start, logstride, size, psync);
        }
        for (q = 0; q < size; q++) {
            for (k = 0; k < n * es; k++) {
                XG_CHECK(dst[(size_t)q * n * es + k] ==
                             (unsigned char)code(q, r, k),
                         "alltoall%d (%d, %d, %d): member %d byte %zu", bits,
                         start, logstride, size, q, k);
            }
        }
        shmem_barrier_all();
        /* strided: element e of the send buffer at e * 2, lands at e * 3 */
        if (bits == 32) {
            uint32_t *s = (uint32_t *)src, *d = (uint32_t *)dst;

            for (k = 0; k < (size_t)size * n; k++) {
                s[2 * k] = code(r, (int)(k / n), k % n);
            }
            shmem_alltoalls32(d, s, 3, 2, n, start, logstride, size, psync);
            for (k = 0; k < (size_t)size * n; k++) {
                XG_CHECK(d[3 * k] == code((int)(k / n), r, k % n),
                         "alltoalls32: element %zu", k);
            }
        } else {
            uint64_t *s = (uint64_t *)src, *d = (uint64_t *)dst;

            for (k = 0; k < (size_t)size * n; k++) {
                s[2 * k] = code(r, (int)(k / n), k % n);
            }
            shmem_alltoalls64(d, s, 3, 2, n, start, logstride, size, psync);
            for (k = 0; k < (size_t)size * n; k++) {
                XG_CHECK(d[3 * k] == code((int)(k / n), r, k % n),
                         "alltoalls64: element %zu", k);
            }
        }
        shmem_barrier_all();
    }
}

int main(void)
{
    int t, i;

    coll_test_start(BUF_BYTES, &src, &dst);
    me   = shmem_my_pe();
    npes = shmem_n_pes();

    for (t = 0; t < COLL_TEST_TEAMS; t++) {
        if (coll_teams[t].team != SHMEM_TEAM_INVALID) {
            team_case(coll_teams[t].name, coll_teams[t].team);
        }
    }

    shmem_barrier_all();
    active_set(0, 0, npes);
    if (me % 2 == 0) {
        active_set(0, 1, (npes + 1) / 2);
    } else {
        for (i = 0; i < 4; i++) {
            shmem_barrier_all(); /* the evens' barriers */
        }
    }
    return coll_test_finish(psync, SHMEM_ALLTOALLS_SYNC_SIZE, src, dst);
}
