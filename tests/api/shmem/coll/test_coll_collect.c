/*
 * collect and fcollect: on every test team, typed (a spread of types), the
 * byte forms and the C11 generic forms; fcollect with 0, 1, 7 and 1000
 * elements per PE and 256 KiB + 5 bytes per PE (2 MiB and more with 8
 * PEs); collect with a different count on each member -- some contribute
 * nothing -- up to 256 KiB per member; then the deprecated collect32/64 and
 * fcollect32/64 on the job and on the even PEs, with pSync back at
 * SHMEM_SYNC_VALUE.  Every block must come from the right member, in member
 * order, and the byte after the result must keep its sentinel.
 */
#include <shmem.h>
#include <stdint.h>
#include <string.h>

#include "coll_test.h"

#define BUF_BYTES  (8u << 20)
#define BIG_PER_PE ((256u << 10) + 5)

static int me, npes;
static unsigned char *src, *dst;
static long psync[SHMEM_COLLECT_SYNC_SIZE];

static unsigned char byte_at(int member, size_t i, unsigned salt)
{
    return (unsigned char)(member * 29 + i * 7 + salt * 13 + 3);
}

/* Elements member r contributes to a collect: 0 for every third member. */
static size_t collect_count(int r, size_t scale)
{
    return (size_t)(r % 3) * scale + ((r % 3 == 0) ? 0 : (size_t)r);
}

#define FCOLLECT_TYPED(TYPE, TYPENAME)                                         \
    static void fcollect_##TYPENAME(const char *what, shmem_team_t team,       \
                                    size_t n)                                  \
    {                                                                          \
        TYPE *s = (TYPE *)src, *d = (TYPE *)dst;                               \
        int r = shmem_team_my_pe(team), np = shmem_team_n_pes(team), q;        \
        size_t i;                                                              \
                                                                               \
        for (i = 0; i < n; i++) {                                              \
            s[i] = (TYPE)((r * 11 + (int)i) % 100);                            \
        }                                                                      \
        d[n * (size_t)np] = (TYPE)-1;                                          \
        XG_CHECK(shmem_##TYPENAME##_fcollect(team, d, s, n) == 0,              \
                 "%s " #TYPENAME "_fcollect", what);                           \
        for (q = 0; q < np; q++) {                                             \
            for (i = 0; i < n; i++) {                                          \
                XG_CHECK(d[(size_t)q * n + i] ==                               \
                             (TYPE)((q * 11 + (int)i) % 100),                  \
                         "%s " #TYPENAME "_fcollect of %zu: member %d "        \
                         "element %zu",                                        \
                         what, n, q, i);                                       \
            }                                                                  \
        }                                                                      \
        XG_CHECK(d[n * (size_t)np] == (TYPE)-1,                                \
                 "%s " #TYPENAME "_fcollect: past the end", what);             \
    }                                                                          \
    static void collect_##TYPENAME(const char *what, shmem_team_t team,        \
                                   size_t scale)                               \
    {                                                                          \
        TYPE *s = (TYPE *)src, *d = (TYPE *)dst;                               \
        int r = shmem_team_my_pe(team), np = shmem_team_n_pes(team), q;        \
        size_t i, off = 0, n = collect_count(r, scale);                        \
                                                                               \
        for (i = 0; i < n; i++) {                                              \
            s[i] = (TYPE)((r * 13 + (int)i) % 90);                             \
        }                                                                      \
        for (q = 0; q < np; q++) {                                             \
            off += collect_count(q, scale);                                    \
        }                                                                      \
        d[off] = (TYPE)-1;                                                     \
        XG_CHECK(shmem_##TYPENAME##_collect(team, d, s, n) == 0,               \
                 "%s " #TYPENAME "_collect", what);                            \
        for (off = 0, q = 0; q < np; q++) {                                    \
            for (i = 0; i < collect_count(q, scale); i++, off++) {             \
                XG_CHECK(d[off] == (TYPE)((q * 13 + (int)i) % 90),             \
                         "%s " #TYPENAME "_collect: member %d element %zu",    \
                         what, q, i);                                          \
            }                                                                  \
        }                                                                      \
        XG_CHECK(d[off] == (TYPE)-1, "%s " #TYPENAME "_collect: past the end", \
                 what);                                                        \
    }
#define TEST_TYPES(X)          \
    X(char, char)              \
    X(short, short)            \
    X(int, int)                \
    X(double, double)          \
    X(long double, longdouble) \
    X(uint32_t, uint32)        \
    X(uint64_t, uint64)
TEST_TYPES(FCOLLECT_TYPED)

/* The byte forms with @n bytes per member (fcollect) or scaled counts. */
static void bytes(const char *what, shmem_team_t team, size_t n, unsigned salt)
{
    int r = shmem_team_my_pe(team), np = shmem_team_n_pes(team), q;
    size_t i, off, mine;

    for (i = 0; i < n; i++) {
        src[i] = byte_at(r, i, salt);
    }
    dst[n * (size_t)np] = 0xee;
    XG_CHECK(shmem_fcollectmem(team, dst, src, n) == 0, "fcollectmem");
    for (q = 0; q < np; q++) {
        for (i = 0; i < n; i++) {
            if (dst[(size_t)q * n + i] != byte_at(q, i, salt)) {
                XG_CHECK(0, "%s fcollectmem of %zu: member %d byte %zu", what,
                         n, q, i);
            }
        }
    }
    XG_CHECK(dst[n * (size_t)np] == 0xee, "%s fcollectmem: past the end", what);

    mine = collect_count(r, n / 2);
    for (i = 0; i < mine; i++) {
        src[i] = byte_at(r, i, salt + 1);
    }
    for (off = 0, q = 0; q < np; q++) {
        off += collect_count(q, n / 2);
    }
    dst[off] = 0xee;
    XG_CHECK(shmem_collectmem(team, dst, src, mine) == 0, "collectmem");
    for (off = 0, q = 0; q < np; q++) {
        for (i = 0; i < collect_count(q, n / 2); i++, off++) {
            if (dst[off] != byte_at(q, i, salt + 1)) {
                XG_CHECK(0, "%s collectmem: member %d byte %zu", what, q, i);
            }
        }
    }
    XG_CHECK(dst[off] == 0xee, "%s collectmem: past the end", what);
}

static void generic(shmem_team_t team)
{
    int r = shmem_team_my_pe(team), np = shmem_team_n_pes(team), q;
    long *s = (long *)src, *d = (long *)dst;

    s[0] = 1000 + r;
    s[1] = 2000 + r;
    XG_CHECK(shmem_fcollect(team, d, s, 2) == 0, "C11 fcollect");
    for (q = 0; q < np; q++) {
        XG_CHECK((d[2 * q] == 1000 + q) && (d[2 * q + 1] == 2000 + q),
                 "C11 fcollect member %d", q);
    }
    XG_CHECK(shmem_collect(team, d, s, (size_t)(r % 2)) == 0, "C11 collect");
    for (q = 1; q < np; q += 2) {
        XG_CHECK(d[q / 2] == 1000 + q, "C11 collect: %ld", d[q / 2]);
    }
}

static void team_case(const char *what, shmem_team_t team)
{
    static const size_t counts[] = {0, 1, 7, 1000};
    unsigned c;

    for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
#define RUN(TYPE, TYPENAME)                     \
    fcollect_##TYPENAME(what, team, counts[c]); \
    collect_##TYPENAME(what, team, counts[c]);
        TEST_TYPES(RUN)
#undef RUN
        bytes(what, team, counts[c], c);
    }
    bytes(what, team, BIG_PER_PE, 9);
    generic(team);
}

/* collect32/64 and fcollect32/64 over an active set. */
static void active_set(int start, int logstride, int size)
{
    int r = (me - start) >> logstride, q, bits;
    size_t i, off, n;

    for (bits = 32; bits <= 64; bits += 32) {
        size_t es = (size_t)bits / 8;

        /* fcollect: 100 elements each */
        n = 100;
        for (i = 0; i < n * es; i++) {
            src[i] = byte_at(r, i, (unsigned)bits);
        }
        if (bits == 32) {
            shmem_fcollect32(dst, src, n, start, logstride, size, psync);
        } else {
            shmem_fcollect64(dst, src, n, start, logstride, size, psync);
        }
        for (q = 0; q < size; q++) {
            for (i = 0; i < n * es; i++) {
                XG_CHECK(dst[(size_t)q * n * es + i] ==
                             byte_at(q, i, (unsigned)bits),
                         "fcollect%d (%d, %d, %d): member %d byte %zu", bits,
                         start, logstride, size, q, i);
            }
        }
        shmem_barrier_all();
        /* collect: member q gives q + 1 elements */
        n = (size_t)r + 1;
        for (i = 0; i < n * es; i++) {
            src[i] = byte_at(r, i, (unsigned)bits + 1);
        }
        if (bits == 32) {
            shmem_collect32(dst, src, n, start, logstride, size, psync);
        } else {
            shmem_collect64(dst, src, n, start, logstride, size, psync);
        }
        for (off = 0, q = 0; q < size; q++) {
            for (i = 0; i < ((size_t)q + 1) * es; i++, off++) {
                XG_CHECK(dst[off] == byte_at(q, i, (unsigned)bits + 1),
                         "collect%d (%d, %d, %d): member %d byte %zu", bits,
                         start, logstride, size, q, i);
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
    return coll_test_finish(psync, SHMEM_COLLECT_SYNC_SIZE, src, dst);
}
